import { relativeTime } from './smpp-sms.provider.js';

describe(relativeTime.name, () => {
  it.each([
    [5, '000000000500000R'],
    [90, '000000013000000R'],
    [1439, '000000235900000R'],
    [2880, '000002000000000R'],
  ])('writes %i minutes as the SMPP relative time %s', (minutes, time) => {
    expect(relativeTime(minutes)).toBe(time);
  });
});
