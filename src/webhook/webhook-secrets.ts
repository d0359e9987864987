import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

export const WEBHOOK_SECRET_BOX = Symbol('WEBHOOK_SECRET_BOX');

/** After a rotation the previous secret still signs for this long. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

const PREFIX = 'whsec_';

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
export const newWebhookSecret = (): string => `${PREFIX}${randomBytes(32).toString('base64')}`;

/**
 * The `webhook-signature` header of the Standard Webhooks format: `v1,<base64 HMAC-SHA256>` of
 * `{id}.{timestamp in seconds}.{body}` under each live secret's bytes, space-separated.
 */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: Date, body: string): string {
  const signed = `${id}.${Math.floor(timestamp.getTime() / 1000)}.${body}`;
  return secrets.map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(signed).digest('base64')}`).join(' ');
}

/** Keys are kept by secret: making one decodes the secret. */
const keys = new Map<string, KeyObject>();

function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size > 1000) keys.clear();
    key = createSecretKey(Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64'));
    keys.set(secret, key);
  }
  return key;
}
