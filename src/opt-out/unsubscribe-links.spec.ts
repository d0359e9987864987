import { UnsubscribeLinks } from './unsubscribe-links.js';

describe('UnsubscribeLinks', () => {
  const links = new UnsubscribeLinks('a-secret-of-the-service-0123456789abcdef');
  const owner = { accountId: '0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01', phone: '+2250707070707', sandbox: false };

  it('reads back the account, number and mode of a token, in 46 URL-safe characters', () => {
    const token = links.token(owner);

    expect(token).toMatch(/^[A-Za-z0-9_-]{46}$/);
    expect(links.read(token)).toEqual(owner);
    expect(links.read(links.token({ ...owner, phone: '+999123456789012', sandbox: true }))).toEqual({ ...owner, phone: '+999123456789012', sandbox: true });
  });

  it('refuses a token changed in any character, one made under another secret, and anything else', () => {
    const token = links.token(owner);
    const other = new UnsubscribeLinks('another-secret-of-the-service-0123456789');

    for (let index = 0; index < token.length; index++) {
      const changed = `${token.slice(0, index)}${token[index] === 'A' ? 'B' : 'A'}${token.slice(index + 1)}`;
      expect(links.read(changed)).toBeNull();
    }
    expect(links.read(other.token(owner))).toBeNull();
    for (const text of ['', 'x', `${token}A`, token.slice(1), '../../etc/passwd']) expect(links.read(text)).toBeNull();
  });
});
