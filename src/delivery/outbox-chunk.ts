import type { SmsPayload } from './outbox-payload.js';

/** The most messages one outbox entry of the bulk lane holds. */
export const CHUNK_SIZE = 100;

/** One message of a chunk, as the chunk's payload document lists it. */
export interface ChunkMessage {
  recordId: string;
  /** Hundredths refunded if it cannot be handed over. */
  amount: number;
  payload: SmsPayload;
}

/** A chunk's payload, stored as an entry's is (sealed when one of its messages holds a secret). */
export interface ChunkDocument {
  messages: ChunkMessage[];
}

/** A message of a chunk refused for now: how many attempts it has had, and when it is tried again. */
export interface RetryProgress {
  attempts: number;
  /** ISO 8601. */
  retryAt: string;
  resume: string | null;
  error: string;
}

/** What has become of one message of a chunk: nothing yet (null), settled for good or dropped (`done`), or a retry. */
export type MessageProgress = null | 'done' | RetryProgress;

/** Where a claimed message sits: its chunk, and its place there. */
export interface ChunkPlace {
  chunk: OutboxChunk;
  index: number;
}

/** A chunk's row after a unit of work: its progress and messages left, and when it is due again if its claim is over. */
export interface ChunkState {
  id: number;
  progress: readonly MessageProgress[];
  left: number;
  /** Null while messages of the claim are still being handed over. */
  releaseAt: Date | null;
  /** The last refusal, when the unit has one. */
  error: string | null;
}

/**
 * A claimed chunk of a lot: its messages, what has become of each as last
 * committed, and how many of those handed over under this claim still wait for
 * their outcome. Every message is handed over and settled on its own; units of
 * work change the chunk through ChunkChanges, applied once they commit.
 */
export class OutboxChunk {
  /** Handed over under this claim and not yet settled. */
  outstanding = 0;

  constructor(
    readonly id: number,
    readonly messages: readonly ChunkMessage[],
    public progress: readonly MessageProgress[],
  ) {}

  /** The places of the messages not yet settled. */
  left(): number[] {
    return this.progress.flatMap((progress, index) => (progress === 'done' ? [] : [index]));
  }

  /**
   * The messages to hand over now: those not tried yet and those whose retry
   * is due. All that are left when the row was made due before any of their
   * retries: it was expedited (the provider is back), or a claim of it was cut
   * short.
   */
  due(now: Date, rowDueAt: Date): number[] {
    const left = this.left();
    const retries = left.map((index) => this.progress[index]).filter(isRetry);
    const expedited = retries.length > 0 && retries.every((retry) => Date.parse(retry.retryAt) > rowDueAt.getTime());
    return left.filter((index) => {
      const progress = this.progress[index]!;
      return progress === null || expedited || Date.parse((progress as RetryProgress).retryAt) <= now.getTime();
    });
  }

  /** The message's retry, when it waits for one. */
  retryOf(index: number): RetryProgress | null {
    const progress = this.progress[index];
    return isRetry(progress) ? progress : null;
  }

  /** When the first message left is due: at once for one never tried. */
  nextDue(now: Date): Date {
    const times = this.left().map((index) => {
      const progress = this.progress[index]!;
      return progress === null ? now.getTime() : Date.parse((progress as RetryProgress).retryAt);
    });
    return new Date(Math.min(...times));
  }

  /** Its row as it stands, given back due at its next message when `release`. */
  state(now: Date, release: boolean, error: string | null = null): ChunkState {
    const left = this.left().length;
    return { id: this.id, progress: this.progress, left, releaseAt: release && left > 0 ? this.nextDue(now) : null, error };
  }
}

/** What one unit of work does to claimed chunks' messages; applied to the chunks once it has committed. */
export class ChunkChanges {
  private readonly changed = new Map<OutboxChunk, { progress: MessageProgress[]; settled: number; error: string | null }>();

  /** A message handed over under this claim is settled for good (sent or failed). */
  done(place: ChunkPlace): void {
    const change = this.changeOf(place.chunk);
    change.progress[place.index] = 'done';
    change.settled++;
  }

  /** A message handed over under this claim waits for another attempt. */
  retry(place: ChunkPlace, retry: RetryProgress): void {
    const change = this.changeOf(place.chunk);
    change.progress[place.index] = retry;
    change.settled++;
    change.error = retry.error;
  }

  /** Each chunk changed, as its row stands after the unit: given back once no message of its claim is left in hand. */
  states(now: Date): ChunkState[] {
    return [...this.changed].map(([chunk, change]) => {
      const after = new OutboxChunk(chunk.id, chunk.messages, change.progress);
      return after.state(now, chunk.outstanding === change.settled, change.error);
    });
  }

  /** The unit has committed: the chunks move on. */
  commit(): void {
    for (const [chunk, change] of this.changed) {
      chunk.progress = change.progress;
      chunk.outstanding -= change.settled;
    }
  }

  private changeOf(chunk: OutboxChunk) {
    let change = this.changed.get(chunk);
    if (!change) this.changed.set(chunk, (change = { progress: [...chunk.progress], settled: 0, error: null }));
    return change;
  }
}

const isRetry = (progress: MessageProgress | undefined): progress is RetryProgress => typeof progress === 'object' && progress !== null;
