import { hash, randomBytes } from 'node:crypto';

const KEY_PATTERN = /^mk_(live|test)_[A-Za-z0-9_-]{43}$/;
const OPERATOR_KEY_PATTERN = /^mk_op_[A-Za-z0-9_-]{43}$/;

export interface GeneratedApiKey {
  key: string;
  hash: string;
  prefix: string;
}

/** `mk_live_` or `mk_test_` and the base64url of 32 random bytes. */
export function generateApiKey(test: boolean): GeneratedApiKey {
  return generated(`mk_${test ? 'test' : 'live'}_`);
}

/** `mk_op_` and the base64url of 32 random bytes: an operator key, which belongs to no account. */
export function generateOperatorKey(): GeneratedApiKey {
  return generated('mk_op_');
}

function generated(prefix: string): GeneratedApiKey {
  const key = `${prefix}${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, 12) };
}

export const hashApiKey = (key: string): string => hash('sha256', key, 'hex');

export const isApiKeyShaped = (token: string): boolean => KEY_PATTERN.test(token);

export const isOperatorKeyShaped = (token: string): boolean => OPERATOR_KEY_PATTERN.test(token);
