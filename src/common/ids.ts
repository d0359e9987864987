import { randomFillSync } from 'node:crypto';
import { isValid as isUlidString, monotonicFactory } from 'ulid';
import { v7 as uuidv7, validate as isUuidString } from 'uuid';

/** Time-ordered identifiers keep primary-key indexes append-mostly. */
export const newId = (): string => uuidv7();

const pool = Buffer.alloc(4096);
let next = pool.length;

/** Random bytes as fractions of 1, drawn from a pool: the ULID library asks for one byte per character. */
function pooledRandom(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++]! / 256;
}

/** The lot of one send request: a ULID string. */
export const newLot: () => string = monotonicFactory(pooledRandom);

/** The smallest UUID v7 of a millisecond: UUID v7 ids sort by creation time, so ranges of them are ranges of time. */
export function uuidV7Floor(at: Date): string {
  const hex = Math.max(0, at.getTime()).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}

export const isUuid = (value: string): boolean => isUuidString(value);

export const isUlid = (value: string): boolean => value.length === 26 && isUlidString(value);
