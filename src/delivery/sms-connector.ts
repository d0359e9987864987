import { randomInt } from 'node:crypto';
import type { Sql } from '../database/sql.js';
import type { CircuitState } from './circuit.js';
import type { SmsSubmission } from './sms-provider.js';

/** What the operator sees of a connector on this instance (`GET /v1/admin/connectors`, `/health`, metrics). */
export interface ConnectorHealth {
  id: string;
  /** At least one bind bound, not drained, circuit closed. */
  healthy: boolean;
  binds: { bound: number; total: number };
  circuit: CircuitState;
  drained: boolean;
  /** The configured rate; null for none. */
  tps: number | null;
  /** The rate allowed now, after the SMSC's busy answers (null: no limit). */
  rate: number | null;
  inFlight: number;
  lastError: string | null;
  /** When the health last changed. */
  since: Date;
}

/**
 * The parts of a long message a connector has taken so far, kept with the
 * outbox entry between attempts: the rest goes through the same connector
 * under the same reference. `connector` also names where the last attempt
 * went when nothing was taken, so that a move elsewhere is counted.
 */
export interface PartsProgress {
  connector: string | null;
  reference: number;
  providerIds: string[];
  /** When the first part was taken (ms since the epoch). */
  since: number | null;
  /** Why the last attempt ended without the whole message. */
  failure: string | null;
}

/** One SMS connection of the routing file, on this instance. */
export interface SmsConnector {
  readonly id: string;
  /** `smpp` (an SMSC), or `log` (each SMS written to the log). */
  readonly transport: 'smpp' | 'log';
  readonly sendsReceipts: boolean;
  /** Can take a message now: healthy, or a half-open circuit free for its probe. */
  available(): boolean;
  health(): ConnectorHealth;
  /** Submits the parts not yet taken; resolves with every part's provider id. */
  submit(sms: SmsSubmission, progress: PartsProgress): Promise<string[]>;
  /** In the unit of work that records a message it took: what it must do later (SmsProvider.accepted). */
  accepted?(sql: Sql, providerIds: string[], at: Date): Promise<void>;
  /** Taken out of every route (or back in) by the operator. */
  setDrained(drained: boolean): void;
  start(): void;
  stop(): Promise<void>;
  /** Called whenever it becomes able to take messages again. */
  onReady(listener: () => void): void;
}

export function readProgress(resume: string | null): PartsProgress {
  const stored = resume ? (JSON.parse(resume) as Partial<PartsProgress>) : {};
  return {
    // a resume state written before routing existed is the single connection's
    connector: stored.connector ?? (stored.providerIds?.length ? 'default' : null),
    reference: stored.reference ?? randomInt(256),
    providerIds: stored.providerIds ?? [],
    since: stored.since ?? null,
    failure: stored.failure ?? null,
  };
}

/** A fresh start on `connector`: a new concatenation reference (another than `previous`), nothing taken. */
export function freshProgress(connector: string | null, previous?: PartsProgress): PartsProgress {
  const reference = previous ? (previous.reference + 1 + randomInt(255)) % 256 : randomInt(256);
  return { connector, reference, providerIds: [], since: null, failure: null };
}
