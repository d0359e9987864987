import { createHmac, timingSafeEqual } from 'node:crypto';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { nextAttemptDelayMs, RETRY_DELAYS_MS } from './retry-schedule.js';
import { newWebhookSecret, signatureHeader } from './webhook-secrets.js';
import { parseRetryAfter } from './webhook-sender.js';

/** The documented algorithm, written out: base64 HMAC-SHA256 under the secret's bytes over `{id}.{timestamp}.{body}`. */
function handVerify(secret: string, id: string, timestamp: string, body: string, header: string): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = Buffer.from(createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64'));
  return header.split(' ').some((signature) => {
    const [version, value] = signature.split(',');
    const given = Buffer.from(value ?? '');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe('webhook signatures', () => {
  const body = JSON.stringify({ id: 'evt', type: 'sms.delivered', data: { to: '+2250707070707', text: 'é' } });
  const id = '0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f99';

  it('makes whsec_ secrets of 32 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('signs so that the standardwebhooks verifier and a hand-written check both accept it', () => {
    const secret = newWebhookSecret();
    const now = new Date();
    const timestamp = String(Math.floor(now.getTime() / 1000));
    const header = signatureHeader([secret], id, now, body);
    expect(header).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': header })).toEqual(JSON.parse(body));
    expect(handVerify(secret, id, timestamp, body, header)).toBe(true);
    expect(handVerify(secret, id, timestamp, `${body} `, header)).toBe(false);
  });

  it('signs any id, time and body exactly as the standardwebhooks library does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.string({ maxLength: 60 }), fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }), fc.string({ unit: 'binary', maxLength: 300 }), (bytes, eventId, at, payload) => {
        const secret = `whsec_${Buffer.from(bytes).toString('base64')}`;
        expect(signatureHeader([secret], eventId, at, payload)).toBe(new Webhook(secret).sign(eventId, at, payload));
      }),
    );
  });

  it('sends one signature per live secret, each verifiable alone', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const now = new Date();
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signatureHeader([current, previous], id, now, body) };
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow('No matching signature');
  });
});

describe('retry schedule', () => {
  it('follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h within ±10 %', () => {
    expect(RETRY_DELAYS_MS).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    RETRY_DELAYS_MS.forEach((delay, index) => {
      expect(nextAttemptDelayMs(index + 1, null, () => 0)).toBe(Math.round(delay * 0.9));
      expect(nextAttemptDelayMs(index + 1, null, () => 1)).toBe(Math.round(delay * 1.1));
    });
    expect(nextAttemptDelayMs(12, null, () => 0.5)).toBe(36_000_000);
  });

  it('waits at least what Retry-After asks', () => {
    expect(nextAttemptDelayMs(1, 60_000, () => 0.5)).toBe(60_000);
    expect(nextAttemptDelayMs(2, 60_000, () => 0.5)).toBe(300_000);
    expect(parseRetryAfter('120', 0)).toBe(120_000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:00 GMT', Date.parse('Wed, 21 Oct 2026 07:27:00 GMT'))).toBe(60_000);
    expect(parseRetryAfter('soon', 0)).toBeNull();
    expect(parseRetryAfter(undefined, 0)).toBeNull();
  });
});
