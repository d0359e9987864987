import { SecretBox } from './secret-box.js';

const SECRET = 's'.repeat(32);
const PLAINTEXT = '{"status":200,"data":{"code":"482913"},"note":"é 😀"}';

function tampered(sealed: string, index: number): string {
  const bytes = Buffer.from(sealed, 'base64');
  bytes[index] = bytes[index]! ^ 0x01;
  return bytes.toString('base64');
}

describe(SecretBox.name, () => {
  const box = new SecretBox(SECRET, 'idempotency');

  it('opens what it sealed', () => {
    expect(box.open(box.seal(PLAINTEXT))).toBe(PLAINTEXT);
  });

  it('does not show the plaintext and never seals twice alike', () => {
    const sealed = box.seal(PLAINTEXT);
    expect(Buffer.from(sealed, 'base64').toString('utf8')).not.toContain('482913');
    expect(box.seal(PLAINTEXT)).not.toBe(sealed);
  });

  it.each([
    ['the nonce', 0],
    ['the tag', 12],
    ['the ciphertext', 30],
  ])('detects tampering with %s', (_part, index) => {
    expect(() => box.open(tampered(box.seal(PLAINTEXT), index))).toThrow();
  });

  it('derives different keys for different purposes', () => {
    expect(() => new SecretBox(SECRET, 'other-purpose').open(box.seal(PLAINTEXT))).toThrow();
  });

  it('derives different keys for different secrets', () => {
    expect(() => new SecretBox('t'.repeat(32), 'idempotency').open(box.seal(PLAINTEXT))).toThrow();
  });
});
