import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** Whose unsubscribe link a token is. */
export interface LinkOwner {
  accountId: string;
  /** E.164. */
  phone: string;
  /** A link sent with a sandbox key unsubscribes from sandbox traffic only. */
  sandbox: boolean;
}

const UUID_BYTES = 16;
const PHONE_BYTES = 8;
const MAC_BYTES = 9;
const SIGNED_BYTES = 1 + UUID_BYTES + PHONE_BYTES;

/**
 * Unsubscribe tokens (SPEC-2 §3): the account, the number and the mode, with
 * an HMAC of them (72 bits, under a key derived from OTP_SECRET), in 46
 * base64url characters. The token carries what it names, so sending a link
 * writes nothing, and a token cannot be made for another number.
 */
export class UnsubscribeLinks {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'unsubscribe-link', 32));
  }

  token(owner: LinkOwner): string {
    const signed = Buffer.alloc(SIGNED_BYTES);
    signed.writeUInt8(owner.sandbox ? 1 : 0, 0);
    Buffer.from(owner.accountId.replaceAll('-', ''), 'hex').copy(signed, 1);
    signed.writeBigUInt64BE(BigInt(owner.phone.slice(1)), 1 + UUID_BYTES);
    return Buffer.concat([signed, this.mac(signed)]).toString('base64url');
  }

  /** Null for anything that is not a token this service made. */
  read(token: string): LinkOwner | null {
    if (!/^[A-Za-z0-9_-]{46}$/.test(token)) return null;
    const bytes = Buffer.from(token, 'base64url');
    const signed = bytes.subarray(0, SIGNED_BYTES);
    if (bytes.length !== SIGNED_BYTES + MAC_BYTES || bytes.toString('base64url') !== token || !timingSafeEqual(bytes.subarray(SIGNED_BYTES), this.mac(signed))) return null;
    const hex = signed.subarray(1, 1 + UUID_BYTES).toString('hex');
    return {
      accountId: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
      phone: `+${signed.readBigUInt64BE(1 + UUID_BYTES)}`,
      sandbox: signed.readUInt8(0) === 1,
    };
  }

  private mac(signed: Buffer): Buffer {
    return createHmac('sha256', this.key).update(signed).digest().subarray(0, MAC_BYTES);
  }
}

export const UNSUBSCRIBE_LINKS = Symbol('UNSUBSCRIBE_LINKS');
