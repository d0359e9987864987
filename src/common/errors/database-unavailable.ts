import { types } from 'node:util';
import { QueryFailedError } from 'typeorm';

/** Connection-level failures of mysql2 and SQLite: the database cannot be reached or used now. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'ER_LOCK_WAIT_TIMEOUT',
  // a deadlock or lost Galera certification still there after the unit's retries: a moment of contention
  'ER_LOCK_DEADLOCK',
  // 1047: a Galera node outside the cluster's primary component (or not yet synced) refuses statements
  'ER_UNKNOWN_COM_ERROR',
]);
/** SQLite's result codes of the same kind, with their extended forms (`SQLITE_BUSY_TIMEOUT`, `SQLITE_IOERR_FSYNC`…). */
const UNAVAILABLE_SQLITE_CODE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL)(_[A-Z_]+)?$/;

const UNAVAILABLE_MESSAGES = [
  /pool is closed/i,
  /connection is in closed state/i,
  /can't add new command when connection is in closed state/i,
  /timeout acquiring a connection/i,
  /queue limit reached/i,
  /connection not opened|database connection is not open/i,
  /connection is not established with \w+ database/i,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  const cause = error instanceof QueryFailedError ? error.driverError : error;
  // native errors from another realm (a driver's addon, a test sandbox) fail `instanceof Error`
  if (!types.isNativeError(cause) && !(cause instanceof Error)) return false;
  const { code, fatal } = cause as Error & { code?: unknown; fatal?: unknown };
  if (fatal === true) return true;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_SQLITE_CODE.test(code))) return true;
  return UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(cause.message));
}
