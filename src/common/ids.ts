import { isValid as isUlidString, monotonicFactory } from 'ulid';
import { v7 as uuidv7 } from 'uuid';
import { pooledRandomByte, pooledRandomBytes } from './crypto/random-pool.js';

const clock = { msecs: -Infinity, seq: 0 };

/**
 * A UUID v7. Time-ordered identifiers keep primary-key indexes append-mostly,
 * and those of one process keep their order within a millisecond (a counter,
 * as the uuid library keeps it), but its random bytes come from the pool: the
 * library would ask the CSPRNG for them on every call. Rows that lists filter
 * by creation time take the time of their `created_at` (`at`), so that a range
 * of ids is that range of creation times (see `createdRange`).
 */
export function newId(at?: Date): string {
  const random = pooledRandomBytes(16);
  const now = at ? at.getTime() : Date.now();
  if (now > clock.msecs) {
    clock.msecs = now;
    clock.seq = random.readUInt32BE(6) & 0x7fffffff;
  } else {
    clock.seq = (clock.seq + 1) | 0;
    if (clock.seq === 0) clock.msecs++;
  }
  return uuidv7({ msecs: clock.msecs, seq: clock.seq, random });
}

/** Random fractions of 1: the ULID library asks for one per character. */
const randomFraction = (): number => pooledRandomByte() / 256;

/** The lot of one send request: a ULID string. */
export const newLot: () => string = monotonicFactory(randomFraction);

/** The smallest UUID v7 of a millisecond: UUID v7 ids sort by creation time, so ranges of them are ranges of time. */
export function uuidV7Floor(at: Date): string {
  const hex = Math.max(0, at.getTime()).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}

/** A UUID as the `uuid` package validates one (versions 1 to 8, the nil and the max UUID), for OpenAPI patterns too. */
const H = '[0-9a-fA-F]';
export const UUID_PATTERN = `^(?:${H}{8}-${H}{4}-[1-8]${H}{3}-[89abAB]${H}{3}-${H}{12}|0{8}-0{4}-0{4}-0{4}-0{12}|[fF]{8}-[fF]{4}-[fF]{4}-[fF]{4}-[fF]{12})$`;
const UUID = new RegExp(UUID_PATTERN);

export const isUuid = (value: string): boolean => UUID.test(value);

export const isUlid = (value: string): boolean => value.length === 26 && isUlidString(value);
