import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const WEBHOOK_SECRET_BOX = Symbol('WEBHOOK_SECRET_BOX');

/** After a rotation the previous secret still signs for this long. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256>` of
 * `{id}.{timestamp}.{body}` under each live secret, space-separated, computed
 * by the standardwebhooks library.
 */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => signer(secret).sign(id, timestamp, body)).join(' ');
}

/** Signers are kept by secret: building one decodes the key. */
const signers = new Map<string, Webhook>();

function signer(secret: string): Webhook {
  let found = signers.get(secret);
  if (!found) {
    if (signers.size > 1000) signers.clear();
    found = new Webhook(secret);
    signers.set(secret, found);
  }
  return found;
}
