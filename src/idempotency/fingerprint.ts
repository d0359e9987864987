import { createHash, hash } from 'node:crypto';
import { canonicalJson } from '../common/canonical-json.js';

/**
 * SHA-256 of the request's route (method and path, ids included) and of the
 * canonical JSON of its body: what "the same body" means, to the same
 * operation (a key first used to launch one campaign is not the launch of another).
 */
export const fingerprintOf = (route: string, body: unknown): string => hash('sha256', `${route}\n${canonicalJson(body)}`, 'hex');

/** SHA-256 of the request's route, the query that says what to do with an uploaded file, and the file's bytes. */
export const uploadFingerprintOf = (route: string, query: unknown, bytes: Buffer): string =>
  createHash('sha256').update(`${route}\n`).update(canonicalJson(query ?? {})).update('\n').update(bytes).digest('hex');
