import { hash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.js';

/** The filters a list was asked with, as the cursor binds them: a short hash of their canonical JSON. */
export const filtersHash = (filters: Record<string, unknown>): string =>
  hash('sha256', canonicalJson(dropUndefined(filters)), 'base64url').slice(0, 16);

/** base64url of `{id, f}`: the last key of the page and the hash of its filters. */
export const encodeCursor = (key: string, filters: string): string => Buffer.from(JSON.stringify({ id: key, f: filters })).toString('base64url');

const BASE64URL = /^[A-Za-z0-9_-]{1,512}$/;

/** The key a cursor continues after, or null when it is malformed, of another shape of key, or made for other filters. */
export function decodeCursor(cursor: string, filters: string, keyShape: RegExp): string | null {
  if (!BASE64URL.test(cursor)) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const { id, f } = (decoded ?? {}) as { id?: unknown; f?: unknown };
  return typeof id === 'string' && keyShape.test(id) && f === filters ? id : null;
}

function dropUndefined(filters: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));
}
