import { TtlCache } from '../common/ttl-cache.js';

const MINUTE_MS = 60_000;
/** The most sends of a key one instance holds reserved, its own and those ahead, granted or on their way. */
const MAX_RESERVED = 256;
/** A reservation takes at most this share of the room its key has left: near its threshold, a send reserves itself alone. */
const ROOM_SHARE = 1 / 256;
const CAPACITY = 100_000;
/** The longest a send waits for a reservation on its way (one that outlives it reads the row). */
const MAX_WAIT_MS = 1_000;

interface Lease {
  minute: number;
  /** Reserved in the key's row for this minute, not yet taken by a send. */
  left: number;
  /** Sends of this minute that committed: how fast this instance sends to the key. */
  spent: number;
  /** Reserved by units that have not ended yet, their own sends included. */
  reserving: number;
  /** What those units will leave to other sends if they commit. */
  lending: number;
  /** Sends waiting for what those units lend. */
  waiters: Array<() => void>;
}

/**
 * Enforced country bursts without a write to the country's row on every send
 * (which on MariaDB would make all of an account's sends to a country wait for
 * each other's commit). A send that reads the row reserves, in the row's count
 * of the current minute, itself and sends more, which this instance then makes
 * without reading or writing the row; a send that finds none left while a
 * reservation is on its way waits for it rather than for the row. The
 * reservation counts against the threshold at once, and is good for its minute
 * only, so that each send is counted in the minute it was made: the threshold
 * is never exceeded. What a minute leaves unused counts though never sent, so a
 * busy key may be refused a little early: what an instance holds ahead, lent
 * or on its way, is no more than the sends it made to the key in the minute so
 * far, 1/256 of the room left, and 255, however many of its sends read the row
 * at once; under a threshold of 256 every send reserves itself alone.
 */
export class CountryAllowance {
  private readonly leases = new TtlCache<Lease>(MINUTE_MS, CAPACITY);

  /** Once the sends on their way to the key are known, when it has none left but some are; null when there is nothing to wait for. */
  lent(key: string, at: Date): Promise<void> | null {
    const lease = this.lease(key, at);
    if (lease.left > 0 || lease.lending === 0) return null;
    return new Promise((resolve) => {
      lease.waiters.push(resolve);
      setTimeout(resolve, MAX_WAIT_MS).unref();
    });
  }

  /** Takes one of the sends reserved for the key in this minute; false when none is left. */
  take(key: string, at: Date): boolean {
    const lease = this.lease(key, at);
    if (lease.left === 0) return false;
    lease.left--;
    return true;
  }

  /** A send taken by a unit that did not commit goes back to the lease. */
  giveBack(key: string, at: Date): void {
    this.lease(key, at).left++;
  }

  /** How many sends a send that read the row reserves with itself, given the room its key has left (at least 1). */
  reserve(key: string, at: Date, room: number): number {
    const lease = this.lease(key, at);
    const ahead = Math.min(lease.spent, Math.floor(room * ROOM_SHARE), MAX_RESERVED - 1);
    const more = Math.max(0, Math.min(ahead - lease.left - lease.lending, MAX_RESERVED - lease.left - lease.reserving - 1));
    lease.reserving += 1 + more;
    lease.lending += more;
    return 1 + more;
  }

  /** The unit that reserved `count` sends ended; if it committed, they are this instance's but its own. */
  reserved(key: string, at: Date, count: number, committed: boolean): void {
    const lease = this.lease(key, at);
    lease.reserving = Math.max(0, lease.reserving - count);
    lease.lending = Math.max(0, lease.lending - (count - 1));
    if (committed) lease.left += count - 1;
    settle(lease);
  }

  /** A send of the key committed. */
  spent(key: string, at: Date): void {
    this.lease(key, at).spent++;
  }

  /** The key's lease for the minute of `at`: a new minute starts with nothing reserved, and nothing is kept for a past one. */
  private lease(key: string, at: Date): Lease {
    const minute = minuteOf(at);
    const known = this.leases.get(key, at.getTime());
    if (known?.minute === minute) return known;
    const lease: Lease = { minute, left: 0, spent: 0, reserving: 0, lending: 0, waiters: [] };
    if (known === undefined || known.minute < minute) {
      if (known) settle(known);
      this.leases.set(key, lease, at.getTime());
    }
    return lease;
  }
}

/** Lets the sends waiting for a lease go on: to take what it has, or to read the row. */
function settle(lease: Lease): void {
  for (const resume of lease.waiters.splice(0)) resume();
}

const minuteOf = (at: Date): number => Math.floor(at.getTime() / MINUTE_MS);
