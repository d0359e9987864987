import { maskRecipient, maskSecrets } from './redact.js';

describe('maskRecipient', () => {
  it('keeps the last 4 digits of a phone number', () => {
    expect(maskRecipient('+2250707071234')).toBe('**********1234');
  });

  it('masks a short value entirely', () => {
    expect(maskRecipient('1234')).toBe('****');
  });

  it('keeps the first letter and the domain of an e-mail address', () => {
    expect(maskRecipient('john.doe@example.com')).toBe('j***@example.com');
  });
});

describe('maskSecrets', () => {
  it('masks every occurrence of every secret', () => {
    expect(maskSecrets('code 482913, again 482913, key mk_live_abc', ['482913', 'mk_live_abc'])).toBe(
      'code ******, again ******, key ******',
    );
  });

  it('ignores empty secrets', () => {
    expect(maskSecrets('nothing to hide', [''])).toBe('nothing to hide');
  });
});
