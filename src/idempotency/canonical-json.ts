import { createHash, hash } from 'node:crypto';

/** JSON with object keys sorted at every level, so that equal bodies have one text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 of the canonical JSON: what "the same body" means. */
export const fingerprintOf = (body: unknown): string => hash('sha256', canonicalJson(body), 'hex');

/** SHA-256 of an uploaded file's bytes and of the query that says what to do with it. */
export const uploadFingerprintOf = (query: unknown, bytes: Buffer): string =>
  createHash('sha256').update(canonicalJson(query ?? {})).update('\n').update(bytes).digest('hex');
