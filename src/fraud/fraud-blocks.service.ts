import { Injectable } from '@nestjs/common';
import { newId } from '../common/ids.js';
import type { Sql } from '../database/sql.js';
import { FraudBlockRepository, isActive, type BlockRecord } from './fraud-block.repository.js';
import type { ActiveBlock, BlockReason, BlockScope } from './fraud-state.js';
import { FraudStateRepository, type FraudScope } from './fraud-state.repository.js';

const HOUR_MS = 3600_000;
/** A prefix's first block lasts an hour, each repeat twice the one before, up to a day. */
const FIRST_PREFIX_BLOCK_MS = HOUR_MS;
const LONGEST_PREFIX_BLOCK_MS = 24 * HOUR_MS;
/** A low-conversion block lasts 6 h; the job blocks again if conversion is still low then. */
const CONVERSION_BLOCK_MS = 6 * HOUR_MS;
/** A block that starts within this long after the previous one of its key ended is a repeat. */
const REPEAT_WINDOW_MS = 24 * HOUR_MS;

/** A block to make: of what, why, and in which mode its group is. */
export interface BlockTarget {
  scope: BlockScope;
  value: string;
  reason: BlockReason;
  mode: ActiveBlock['mode'];
}

/**
 * Temporary blocks of a prefix or a country. Making one first bumps the
 * account's settings version, whose row lock (a certification conflict across
 * Galera nodes) serialises the blocks of one account: two sends that cross a
 * threshold at once make one block, and the version tells every instance's
 * cache to read it.
 */
@Injectable()
export class FraudBlocks {
  constructor(
    private readonly blocks: FraudBlockRepository,
    private readonly states: FraudStateRepository,
  ) {}

  /**
   * The block in force for `target`: the one already there (a monitor block
   * is replaced when an enforce block is asked for), else a new one. A prefix
   * blocked again within a day of its last block's end is blocked twice as
   * long (1 h, 2 h, 4 h, … 24 h); a block lifted by hand starts the count again.
   */
  async impose(sql: Sql, owner: FraudScope, target: BlockTarget, now: Date): Promise<{ block: BlockRecord; created: boolean }> {
    await this.states.bump(sql, owner, now);
    const latest = await this.blocks.latest(sql, owner, target.scope, target.value, target.reason);
    if (latest && isActive(latest, now) && (latest.mode === 'enforce' || target.mode === 'monitor')) return { block: latest, created: false };
    // an enforce block that replaces a monitor block in force is the same crossing, not a repeat
    const strikes = !latest || !isRepeat(latest, now) ? 1 : isActive(latest, now) ? latest.strikes : latest.strikes + 1;
    const block: BlockRecord = {
      ...owner,
      ...target,
      id: newId(now),
      strikes,
      until: new Date(now.getTime() + durationMs(target.reason, strikes)),
      liftedAt: null,
      createdAt: now,
    };
    await this.blocks.insert(sql, { ...block, at: now });
    return { block, created: true };
  }
}

function isRepeat(previous: BlockRecord, now: Date): boolean {
  return previous.liftedAt === null && previous.until.getTime() >= now.getTime() - REPEAT_WINDOW_MS;
}

function durationMs(reason: BlockReason, strikes: number): number {
  if (reason === 'low_conversion') return CONVERSION_BLOCK_MS;
  return Math.min(FIRST_PREFIX_BLOCK_MS * 2 ** Math.min(strikes - 1, 10), LONGEST_PREFIX_BLOCK_MS);
}
