import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import type { FraudScope } from './fraud-state.repository.js';
import type { StoredWindow } from './country-window.js';
import type { VelocityKind } from './velocity-counts.js';

/**
 * One row per velocity key (an address, a user ref, a prefix, a country) of
 * an account, written by each send that counts it while velocity is enforced.
 * On MariaDB the row lock makes the sends sharing a key count and insert one
 * after the other, so that no two of them both see room for one more; across
 * Galera nodes the rows written conflict at certification and one send is run
 * again (SQLite has one writer and needs no lock). A country's row also keeps
 * its sends by minute, so that its burst is one row to read however many
 * sends it had.
 */
@Injectable()
export class VelocityKeyRepository {
  /** Locks the keys' rows until the unit ends, creating those that are new; travels with the unit's next statement. */
  async lock(sql: Sql, owner: FraudScope, keys: ReadonlyArray<{ kind: VelocityKind; value: string }>, at: Date): Promise<void> {
    const rows = keys.map(() => '(?, ?, ?, ?, ?)').join(', ');
    await sql.later(
      `INSERT INTO fraud_velocity_key (account_id, sandbox, kind, value, touched_at) VALUES ${rows} ON DUPLICATE KEY UPDATE touched_at = VALUES(touched_at)`,
      keys.flatMap(({ kind, value }) => [owner.accountId, owner.sandbox, kind, value, at]),
    );
  }

  /** Keeps the country's sends by minute with this send (enforced bursts); travels with the unit's next statement. */
  async storeWindow(sql: Sql, owner: FraudScope, country: string, window: StoredWindow, at: Date): Promise<void> {
    const insert = "INSERT INTO fraud_velocity_key (account_id, sandbox, kind, value, touched_at, minute, counts) VALUES (?, ?, 'country', ?, ?, ?, ?)";
    await sql.later(
      sql.dialect === 'mysql'
        ? `${insert} ON DUPLICATE KEY UPDATE touched_at = VALUES(touched_at), minute = VALUES(minute), counts = VALUES(counts)`
        : `${insert} ON CONFLICT (account_id, sandbox, kind, value) DO UPDATE SET touched_at = excluded.touched_at, minute = excluded.minute, counts = excluded.counts`,
      [owner.accountId, owner.sandbox, country, at, window.minute, window.counts],
    );
  }

  async purgeUntouchedSince(sql: Sql, before: Date): Promise<number> {
    return sql.run('DELETE FROM fraud_velocity_key WHERE touched_at < ?', [before]);
  }
}
