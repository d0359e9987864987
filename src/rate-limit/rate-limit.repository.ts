import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';

/** Request counters per (bucket, fixed window), kept in the database so that every instance counts together. */
@Injectable()
export class RateLimitRepository {
  /** Adds `hits` and returns the window's total (every instance's), in a single statement. */
  async add(sql: Sql, bucket: string, windowStart: Date, hits: number): Promise<number> {
    if (sql.dialect === 'mysql') {
      return sql.insertId(
        `INSERT INTO rate_limit_window (bucket, window_start, hits) VALUES (?, ?, LAST_INSERT_ID(?))
         ON DUPLICATE KEY UPDATE hits = LAST_INSERT_ID(hits + ?)`,
        [bucket, windowStart, hits, hits],
      );
    }
    const row = await sql.get<{ hits: number }>(
      `INSERT INTO rate_limit_window (bucket, window_start, hits) VALUES (?, ?, ?)
       ON CONFLICT (bucket, window_start) DO UPDATE SET hits = hits + excluded.hits RETURNING hits`,
      [bucket, windowStart, hits],
    );
    return Number(row?.hits ?? hits);
  }

  async purgeBefore(sql: Sql, before: Date): Promise<number> {
    return sql.run('DELETE FROM rate_limit_window WHERE window_start < ?', [before]);
  }
}
