import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let next = POOL_BYTES;

/**
 * CSPRNG bytes drawn from a pool refilled 4 KB at a time: each call into
 * OpenSSL costs a few µs, whatever the number of bytes asked for. Every byte
 * is handed out once.
 */
function reserve(size: number): number {
  if (next + size > POOL_BYTES) {
    randomFillSync(pool);
    next = 0;
  }
  const start = next;
  next += size;
  return start;
}

/** `size` (at most 64) random bytes, in a buffer of their own. */
export function pooledRandomBytes(size: number): Buffer {
  if (size > 64) throw new RangeError('at most 64 pooled random bytes at a time');
  const start = reserve(size);
  return Buffer.from(pool.subarray(start, start + size));
}

/** One random byte. */
export const pooledRandomByte = (): number => pool[reserve(1)]!;
