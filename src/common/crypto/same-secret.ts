import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares a presented secret with the expected one in time that tells nothing of either. */
export function sameSecret(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
