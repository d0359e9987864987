import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';
import { pooledRandomBytes } from './random-pool.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM under a key derived (HKDF-SHA256) from an application secret and
 * a purpose, so that one secret can protect several kinds of stored data.
 */
export class SecretBox {
  /** A KeyObject: given bytes, every cipher would first make one of its own. */
  private readonly key: KeyObject;

  constructor(secret: string, purpose: string) {
    this.key = createSecretKey(Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), purpose, 32)));
  }

  seal(plaintext: string): string {
    const iv = pooledRandomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  open(sealed: string): string {
    const bytes = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
