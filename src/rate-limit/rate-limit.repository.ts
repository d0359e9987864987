import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';

/** Request counters per (bucket, fixed window), kept in the database so that every instance counts together. */
@Injectable()
export class RateLimitRepository {
  /** Adds one hit and returns the window's total, in a single statement. */
  async hit(sql: Sql, bucket: string, windowStart: Date): Promise<number> {
    if (sql.dialect === 'mysql') {
      const hits = await sql.insertId(
        `INSERT INTO rate_limit_window (bucket, window_start, hits) VALUES (?, ?, LAST_INSERT_ID(1))
         ON DUPLICATE KEY UPDATE hits = LAST_INSERT_ID(hits + 1)`,
        [bucket, windowStart],
      );
      return hits;
    }
    const row = await sql.get<{ hits: number }>(
      `INSERT INTO rate_limit_window (bucket, window_start, hits) VALUES (?, ?, 1)
       ON CONFLICT (bucket, window_start) DO UPDATE SET hits = hits + 1 RETURNING hits`,
      [bucket, windowStart],
    );
    return Number(row?.hits ?? 1);
  }

  async purgeBefore(sql: Sql, before: Date): Promise<number> {
    return sql.run('DELETE FROM rate_limit_window WHERE window_start < ?', [before]);
  }
}
