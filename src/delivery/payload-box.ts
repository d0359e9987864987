import { SecretBox } from '../common/crypto/secret-box.js';
import { secretsConfig, type SecretsConfig } from '../config/secrets.config.js';
import type { ChunkDocument } from './outbox-chunk.js';

export const PAYLOAD_BOX = Symbol('PAYLOAD_BOX');

/**
 * Outbox payloads may hold a code until they are handed over: those are sealed
 * under a key derived from OTP_SECRET. One without secrets (an ordinary SMS,
 * whose text the message record keeps anyway) is stored as its JSON.
 */
export const payloadBoxProvider = {
  provide: PAYLOAD_BOX,
  inject: [secretsConfig.KEY],
  useFactory: (secrets: SecretsConfig) => new SecretBox(secrets.otpSecret, 'outbox-payload'),
};

export function storePayload(box: SecretBox, payload: { secrets: readonly string[] }): string {
  return store(box, payload, payload.secrets.length > 0);
}

/** A chunk of the bulk lane: sealed when one of its messages holds a secret. */
export function storeChunk(box: SecretBox, document: ChunkDocument): string {
  return store(box, document, document.messages.some((message) => message.payload.secrets.length > 0));
}

function store(box: SecretBox, payload: object, secret: boolean): string {
  const json = JSON.stringify(payload);
  return secret ? box.seal(json) : json;
}

export function readPayload(box: SecretBox, stored: string): unknown {
  return JSON.parse(stored.startsWith('{') ? stored : box.open(stored));
}
