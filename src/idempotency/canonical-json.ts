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

/**
 * SHA-256 of the request's route (method and path, ids included) and of the
 * canonical JSON of its body: what "the same body" means, to the same
 * operation (a key first used to launch one campaign is not the launch of another).
 */
export const fingerprintOf = (route: string, body: unknown): string => hash('sha256', `${route}\n${canonicalJson(body)}`, 'hex');

/** SHA-256 of the request's route, the query that says what to do with an uploaded file, and the file's bytes. */
export const uploadFingerprintOf = (route: string, query: unknown, bytes: Buffer): string =>
  createHash('sha256').update(`${route}\n`).update(canonicalJson(query ?? {})).update('\n').update(bytes).digest('hex');
