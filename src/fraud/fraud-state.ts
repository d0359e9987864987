import type { FraudPolicy } from './fraud-policy.js';
import { inRange, isRange, parseRange, type IpAddress, type IpRange } from './ip-address.js';

/** The safe list (`allow`: phones and user refs that skip every signal) and the deny list (`block`). */
export const FRAUD_LISTS = ['allow', 'block'] as const;
export type FraudList = (typeof FRAUD_LISTS)[number];

export const LIST_KINDS = ['phone', 'prefix', 'country', 'ip', 'user_ref'] as const;
export type ListKind = (typeof LIST_KINDS)[number];

/** What the safe list may hold (as Twilio's Safe List): the numbers and end users that are known good. */
export const ALLOW_KINDS: readonly ListKind[] = ['phone', 'user_ref'];

export const BLOCK_SCOPES = ['prefix', 'country'] as const;
export type BlockScope = (typeof BLOCK_SCOPES)[number];

export const BLOCK_REASONS = ['prefix_velocity', 'low_conversion'] as const;
export type BlockReason = (typeof BLOCK_REASONS)[number];

export interface ListEntry {
  list: FraudList;
  kind: ListKind;
  value: string;
  expiresAt: Date | null;
}

export interface ActiveBlock {
  id: string;
  scope: BlockScope;
  value: string;
  reason: BlockReason;
  /** Made while its group was in monitor mode: it records, it never refuses. */
  mode: 'enforce' | 'monitor';
  until: Date;
}

/** When an entry lapses, in ms; never for an entry without `expires_at`. */
type Expiry = number;

/** A deny-list match: which kind of entry, its value, and until when it holds. */
export interface Listed {
  kind: ListKind;
  value: string;
  expiresAt: number;
}

/**
 * An account's guard settings in one key mode, as an instance caches them:
 * its policy, its lists indexed for the send's look-ups, and its blocks that
 * were active when read. Entries and blocks that lapse after being read are
 * skipped by the time of each look-up.
 */
export class FraudState {
  private readonly allowed = new Map<string, Expiry>();
  private readonly denied = new Map<string, Expiry>();
  private readonly deniedPrefixLengths = new Set<number>();
  private readonly deniedRanges: Array<{ range: IpRange; value: string; expiresAt: Expiry }> = [];
  private readonly blocks = new Map<string, ActiveBlock[]>();
  private readonly lifted = new Map<string, Date>();

  constructor(
    readonly version: number,
    readonly policy: FraudPolicy,
    entries: readonly ListEntry[],
    blocks: readonly ActiveBlock[],
    /** Blocks lifted by hand lately: what was counted before the lift is not counted again. */
    lifts: ReadonlyArray<{ scope: BlockScope; value: string; at: Date }> = [],
  ) {
    for (const entry of entries) {
      const expiresAt = entry.expiresAt?.getTime() ?? Infinity;
      if (entry.list === 'allow') this.allowed.set(key(entry.kind, entry.value), expiresAt);
      else if (entry.kind === 'ip' && isRange(entry.value)) this.deniedRanges.push({ range: parseRange(entry.value), value: entry.value, expiresAt });
      else {
        this.denied.set(key(entry.kind, entry.value), expiresAt);
        if (entry.kind === 'prefix') this.deniedPrefixLengths.add(entry.value.length);
      }
    }
    for (const block of blocks) this.addBlock(block);
    for (const lift of lifts) {
      const at = key(lift.scope, lift.value);
      const known = this.lifted.get(at);
      if (!known || known < lift.at) this.lifted.set(at, lift.at);
    }
  }

  /** Nothing listed and nothing blocked: only the policy's own signals can apply. */
  get bare(): boolean {
    return this.allowed.size === 0 && this.denied.size === 0 && this.deniedRanges.length === 0 && this.blocks.size === 0;
  }

  isAllowed(kind: ListKind, value: string | null, now: number): boolean {
    return value !== null && this.allowed.size > 0 && (this.allowed.get(key(kind, value)) ?? 0) > now;
  }

  /** The deny-list entry `value` matches, if any: a prefix entry matches every number it begins. */
  denial(kind: Exclude<ListKind, 'prefix' | 'ip'>, value: string | null, now: number): Listed | null {
    return value === null ? null : this.listed(kind, value, now);
  }

  prefixDenial(phone: string, now: number): Listed | null {
    for (const length of this.deniedPrefixLengths) {
      const listed = length <= phone.length ? this.listed('prefix', phone.slice(0, length), now) : null;
      if (listed) return listed;
    }
    return null;
  }

  ipDenial(canonical: string | null, address: () => IpAddress, now: number): Listed | null {
    if (canonical === null) return null;
    const exact = this.denied.get(key('ip', canonical)) ?? 0;
    if (exact > now) return { kind: 'ip', value: canonical, expiresAt: exact };
    if (this.deniedRanges.length === 0) return null;
    const parsed = address();
    const range = this.deniedRanges.find((entry) => entry.expiresAt > now && inRange(parsed, entry.range));
    return range ? { kind: 'ip', value: range.value, expiresAt: range.expiresAt } : null;
  }

  private listed(kind: ListKind, value: string, now: number): Listed | null {
    const expiresAt = this.denied.get(key(kind, value)) ?? 0;
    return expiresAt > now ? { kind, value, expiresAt } : null;
  }

  /** When a block of `scope` `value` was last lifted by hand, if lately. */
  liftedAt(scope: BlockScope, value: string | null): Date | null {
    return value === null ? null : (this.lifted.get(key(scope, value)) ?? null);
  }

  /** A block of the account, read or made by this instance since (kept once, whichever of the two saw it first). */
  addBlock(block: ActiveBlock): void {
    const at = key(block.scope, block.value);
    const known = this.blocks.get(at) ?? [];
    if (!known.some((each) => each.id === block.id)) this.blocks.set(at, [...known, block]);
  }

  /** The blocks of `scope` `value` still active at `now`. */
  activeBlocks(scope: ActiveBlock['scope'], value: string | null, now: number): ActiveBlock[] {
    if (value === null) return NO_BLOCKS;
    return (this.blocks.get(key(scope, value)) ?? NO_BLOCKS).filter((block) => block.until.getTime() > now);
  }
}

const NO_BLOCKS: ActiveBlock[] = [];

const key = (kind: string, value: string): string => `${kind}:${value}`;
