import { Injectable } from '@nestjs/common';
import { readBoolean, readTime, type Sql } from '../database/sql.js';
import { readPolicy, type FraudPolicy } from './fraud-policy.js';
import { FraudState, type ActiveBlock, type ListEntry } from './fraud-state.js';

/** Whose guard settings: an account's, in one key mode (a sandbox key has its own). */
export interface FraudScope {
  accountId: string;
  sandbox: boolean;
}

/** An account and mode as a string, which keys what an instance keeps of it. */
export const scopeKey = (scope: FraudScope): string => `${scope.accountId}:${scope.sandbox ? 1 : 0}`;

/** An account and mode whose settings changed, with their version now. */
export interface ChangedScope extends FraudScope {
  version: number;
}

interface PolicyRow {
  policy: string | null;
  version: number | string;
}

interface EntryRow {
  list: ListEntry['list'];
  kind: ListEntry['kind'];
  value: string;
  expires_at: string | Date | null;
}

interface BlockRow {
  id: string;
  scope: ActiveBlock['scope'];
  value: string;
  reason: ActiveBlock['reason'];
  mode: ActiveBlock['mode'];
  blocked_until: string | Date;
  lifted_at: string | Date | null;
}

/** A block lifted by hand is remembered this long: the prefix concentration counts the last hour. */
const LIFT_MEMORY_MS = 3600_000;

/**
 * The `fraud_policy` row of an account and mode: its policy (null: the
 * defaults) and the version that every change of its policy, lists or blocks
 * bumps, in the unit of work of the change, with the time of the change. The
 * bump is also the lock that serialises the changes of one account's blocks.
 */
@Injectable()
export class FraudStateRepository {
  /** The settings of `scope`, read in one round trip, the version first: a change read halfway is read again at the next version. */
  async load(sql: Sql, scope: FraudScope, now: Date): Promise<FraudState> {
    const [[policy], entries, blocks] = await sql.allEach<[PolicyRow[], EntryRow[], BlockRow[]]>(
      ['SELECT policy, version FROM fraud_policy WHERE account_id = ? AND sandbox = ?', [scope.accountId, scope.sandbox]],
      [
        'SELECT list, kind, value, expires_at FROM fraud_list_entry WHERE account_id = ? AND sandbox = ? AND (expires_at IS NULL OR expires_at > ?)',
        [scope.accountId, scope.sandbox, now],
      ],
      [
        // in force, or lifted by hand within the hour the prefix concentration counts
        `SELECT id, scope, value, reason, mode, blocked_until, lifted_at FROM fraud_block
          WHERE account_id = ? AND sandbox = ? AND blocked_until > ? AND (lifted_at IS NULL OR lifted_at > ?)`,
        [scope.accountId, scope.sandbox, new Date(now.getTime() - LIFT_MEMORY_MS), new Date(now.getTime() - LIFT_MEMORY_MS)],
      ],
    );
    const active = blocks.filter((row) => row.lifted_at === null && readTime(row.blocked_until) > now);
    return new FraudState(
      Number(policy?.version ?? 0),
      readPolicy(policy?.policy ?? null),
      entries.map((row) => ({ list: row.list, kind: row.kind, value: row.value, expiresAt: readTime(row.expires_at) })),
      active.map((row) => ({ id: row.id, scope: row.scope, value: row.value, reason: row.reason, mode: row.mode, until: readTime(row.blocked_until) })),
      blocks.flatMap((row) => (row.lifted_at === null ? [] : [{ scope: row.scope, value: row.value, at: readTime(row.lifted_at) }])),
    );
  }

  /** The scopes whose settings changed at or after `since`. */
  async changedSince(sql: Sql, since: Date): Promise<ChangedScope[]> {
    const rows = await sql.all<{ account_id: string; sandbox: unknown; version: number | string }>(
      'SELECT account_id, sandbox, version FROM fraud_policy WHERE changed_at >= ?',
      [since],
    );
    return rows.map((row) => ({ accountId: row.account_id, sandbox: readBoolean(row.sandbox), version: Number(row.version) }));
  }

  /** Bumps the version of `scope`, creating its row (with the default policy) on its first change, and locks it until the unit ends. */
  async bump(sql: Sql, scope: FraudScope, at: Date): Promise<void> {
    const insert = 'INSERT INTO fraud_policy (account_id, sandbox, policy, version, changed_at) VALUES (?, ?, NULL, 1, ?)';
    await sql.later(
      sql.dialect === 'mysql'
        ? `${insert} ON DUPLICATE KEY UPDATE version = version + 1, changed_at = VALUES(changed_at)`
        : `${insert} ON CONFLICT (account_id, sandbox) DO UPDATE SET version = version + 1, changed_at = excluded.changed_at`,
      [scope.accountId, scope.sandbox, at],
    );
  }

  /** The policy of `scope` as stored; call after `bump`, whose lock makes this read the latest. */
  async policyOf(sql: Sql, scope: FraudScope): Promise<FraudPolicy> {
    const row = await sql.get<{ policy: string | null }>('SELECT policy FROM fraud_policy WHERE account_id = ? AND sandbox = ?', [scope.accountId, scope.sandbox]);
    return readPolicy(row?.policy ?? null);
  }

  async savePolicy(sql: Sql, scope: FraudScope, policy: FraudPolicy): Promise<void> {
    await sql.later('UPDATE fraud_policy SET policy = ? WHERE account_id = ? AND sandbox = ?', [JSON.stringify(policy), scope.accountId, scope.sandbox]);
  }

  /** The stored policies (every other scope has the defaults). */
  async storedPolicies(sql: Sql): Promise<Array<FraudScope & { policy: FraudPolicy }>> {
    const rows = await sql.all<{ account_id: string; sandbox: unknown; policy: string }>('SELECT account_id, sandbox, policy FROM fraud_policy WHERE policy IS NOT NULL');
    return rows.map((row) => ({ accountId: row.account_id, sandbox: readBoolean(row.sandbox), policy: readPolicy(row.policy) }));
  }
}
