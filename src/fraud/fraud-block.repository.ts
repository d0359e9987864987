import { Injectable } from '@nestjs/common';
import type { Page } from '../common/list/page.js';
import { readBoolean, readTime, type Param, type Sql } from '../database/sql.js';
import type { FraudScope } from './fraud-state.repository.js';
import type { ActiveBlock, BlockReason, BlockScope } from './fraud-state.js';

export interface BlockRecord extends FraudScope {
  id: string;
  scope: BlockScope;
  value: string;
  reason: BlockReason;
  mode: ActiveBlock['mode'];
  /** The how-manieth block of its key in a row (see FraudBlocks). */
  strikes: number;
  until: Date;
  liftedAt: Date | null;
  createdAt: Date;
}

export type NewBlock = Omit<BlockRecord, 'liftedAt' | 'createdAt'> & { at: Date };

/** The blocks filters; without `scope`, the blocks of every account (the operator's view). */
export interface BlockFilters {
  scope?: Partial<FraudScope>;
  blockScope?: BlockScope;
  reason?: BlockReason;
  /** Only the blocks in force at `now` (true), or only those that are not (false). */
  active?: boolean;
  now: Date;
}

interface BlockRow {
  id: string;
  account_id: string;
  sandbox: unknown;
  scope: BlockScope;
  value: string;
  reason: BlockReason;
  mode: ActiveBlock['mode'];
  strikes: number | string;
  blocked_until: string | Date;
  lifted_at: string | Date | null;
  created_at: string | Date;
}

const SELECT = 'SELECT id, account_id, sandbox, scope, value, reason, mode, strikes, blocked_until, lifted_at, created_at FROM fraud_block';
const ACTIVE = '(lifted_at IS NULL AND blocked_until > ?)';

/** Temporary blocks of a prefix or a country, one row per block: a repeat is a new row, so that each keeps its own length. */
@Injectable()
export class FraudBlockRepository {
  /** The latest block of `scope` `value` for `reason`. */
  async latest(sql: Sql, owner: FraudScope, scope: BlockScope, value: string, reason: BlockReason): Promise<BlockRecord | null> {
    const row = await sql.get<BlockRow>(`${SELECT} WHERE account_id = ? AND sandbox = ? AND scope = ? AND value = ? AND reason = ? ORDER BY id DESC LIMIT 1`, [
      owner.accountId,
      owner.sandbox,
      scope,
      value,
      reason,
    ]);
    return row ? toRecord(row) : null;
  }

  async insert(sql: Sql, block: NewBlock): Promise<void> {
    await sql.insertLater('fraud_block', {
      id: block.id,
      account_id: block.accountId,
      sandbox: block.sandbox,
      scope: block.scope,
      value: block.value,
      reason: block.reason,
      mode: block.mode,
      strikes: block.strikes,
      blocked_until: block.until,
      created_at: block.at,
    });
  }

  async find(sql: Sql, id: string, owner?: FraudScope): Promise<BlockRecord | null> {
    const row = await sql.get<BlockRow>(
      owner ? `${SELECT} WHERE id = ? AND account_id = ? AND sandbox = ?` : `${SELECT} WHERE id = ?`,
      owner ? [id, owner.accountId, owner.sandbox] : [id],
    );
    return row ? toRecord(row) : null;
  }

  /** Lifts the block if it is still in force; false when it is not. */
  async lift(sql: Sql, id: string, at: Date): Promise<boolean> {
    return (await sql.run(`UPDATE fraud_block SET lifted_at = ? WHERE id = ? AND ${ACTIVE}`, [at, id, at])) === 1;
  }

  async list(sql: Sql, filters: BlockFilters, page: Page): Promise<BlockRecord[]> {
    const conditions: string[] = [];
    const params: Param[] = [];
    for (const [column, value] of [
      ['account_id', filters.scope?.accountId],
      ['sandbox', filters.scope?.sandbox],
      ['scope', filters.blockScope],
      ['reason', filters.reason],
    ] as const) {
      if (value === undefined) continue;
      conditions.push(`${column} = ?`);
      params.push(value);
    }
    if (filters.active !== undefined) {
      conditions.push(filters.active ? ACTIVE : `NOT ${ACTIVE}`);
      params.push(filters.now);
    }
    const [text, values] = page.query(SELECT, 'id', conditions, params);
    return (await sql.all<BlockRow>(text, values)).map(toRecord);
  }

  /** The blocks in force at `now`, by scope, across accounts. */
  async countActive(sql: Sql, now: Date): Promise<Array<{ scope: BlockScope; blocks: number }>> {
    const rows = await sql.all<{ scope: BlockScope; blocks: number | string }>(
      'SELECT scope, COUNT(*) AS blocks FROM fraud_block WHERE blocked_until > ? AND lifted_at IS NULL GROUP BY scope',
      [now],
    );
    return rows.map((row) => ({ scope: row.scope, blocks: Number(row.blocks) }));
  }

  async purgeEndedBefore(sql: Sql, before: Date): Promise<number> {
    return sql.run('DELETE FROM fraud_block WHERE blocked_until < ?', [before]);
  }
}

export const isActive = (block: BlockRecord, now: Date): boolean => block.liftedAt === null && block.until.getTime() > now.getTime();

const toRecord = (row: BlockRow): BlockRecord => ({
  id: row.id,
  accountId: row.account_id,
  sandbox: readBoolean(row.sandbox),
  scope: row.scope,
  value: row.value,
  reason: row.reason,
  mode: row.mode,
  strikes: Number(row.strikes),
  until: readTime(row.blocked_until),
  liftedAt: readTime(row.lifted_at),
  createdAt: readTime(row.created_at),
});
