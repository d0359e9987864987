import { CountryAllowance } from './country-allowance.js';

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, 0) + seconds * 1000);
const ROOMY = 1_000_000;

/** A send that finds nothing reserved: it reads the row, reserves, commits. */
function readAndCommit(allowance: CountryAllowance, when: Date, room = ROOMY): number {
  const count = allowance.reserve('k', when, room);
  allowance.reserved('k', when, count, true);
  allowance.spent('k', when);
  return count;
}

describe(CountryAllowance.name, () => {
  it('reserves as many sends as this instance made in the minute so far, and lends them to the sends after', () => {
    const allowance = new CountryAllowance();
    expect(allowance.take('k', at(0))).toBe(false);
    expect(readAndCommit(allowance, at(0))).toBe(1);
    expect(allowance.take('k', at(1))).toBe(false);
    expect(readAndCommit(allowance, at(1))).toBe(2);
    expect(allowance.take('k', at(2))).toBe(true);
    allowance.spent('k', at(2));
    expect(allowance.take('k', at(2))).toBe(false);
    expect(readAndCommit(allowance, at(3))).toBe(4);
  });

  it('holds at most 256 sends of a key, reserved or on their way', () => {
    const allowance = new CountryAllowance();
    for (let n = 0; n < 1_000; n++) allowance.spent('k', at(0));
    const first = allowance.reserve('k', at(0), ROOMY);
    const second = allowance.reserve('k', at(0), ROOMY);
    expect([first, second]).toEqual([256, 1]);
  });

  it('has a send that finds none left wait for the reservation on its way, not for the row', async () => {
    const allowance = new CountryAllowance();
    expect(allowance.lent('k', at(0))).toBeNull();
    allowance.spent('k', at(0));
    allowance.spent('k', at(0));
    const count = allowance.reserve('k', at(0), ROOMY);
    let resumed = false;
    const waiting = allowance.lent('k', at(0))!.then(() => (resumed = true));
    await Promise.resolve();
    expect(resumed).toBe(false);
    allowance.reserved('k', at(0), count, true);
    await waiting;
    expect([allowance.take('k', at(0)), allowance.take('k', at(0)), allowance.take('k', at(0))]).toEqual([true, true, false]);
  });

  it('lets the waiting sends go on when the reservation fails, and when the minute ends', async () => {
    const allowance = new CountryAllowance();
    allowance.spent('k', at(0));
    const count = allowance.reserve('k', at(0), ROOMY);
    const failed = allowance.lent('k', at(0))!;
    allowance.reserved('k', at(0), count, false);
    await failed;
    allowance.reserve('k', at(0), ROOMY);
    const lapsed = allowance.lent('k', at(0))!;
    expect(allowance.lent('k', at(60))).toBeNull();
    await lapsed;
  });

  it('holds ahead no more than its cap however many sends read the row at once', () => {
    const allowance = new CountryAllowance();
    for (let n = 0; n < 100; n++) allowance.spent('k', at(0));
    expect(Array.from({ length: 5 }, () => allowance.reserve('k', at(0), 600))).toEqual([3, 1, 1, 1, 1]);
  });

  it('reserves a send alone near the threshold, and 1/256 of the room at most', () => {
    const allowance = new CountryAllowance();
    for (let n = 0; n < 100; n++) allowance.spent('k', at(0));
    expect(allowance.reserve('k', at(0), 255)).toBe(1);
    expect(allowance.reserve('k', at(0), 2_560)).toBe(11);
  });

  it('keeps what a minute reserved for that minute only', () => {
    const allowance = new CountryAllowance();
    allowance.spent('k', at(0));
    expect(readAndCommit(allowance, at(0))).toBe(2);
    expect(allowance.take('k', at(60))).toBe(false);
    expect(allowance.take('k', at(59))).toBe(false);
  });

  it('lends nothing of a unit that did not commit, and takes back a send given back', () => {
    const allowance = new CountryAllowance();
    allowance.spent('k', at(0));
    const count = allowance.reserve('k', at(0), ROOMY);
    allowance.reserved('k', at(0), count, false);
    expect(allowance.take('k', at(0))).toBe(false);
    expect(readAndCommit(allowance, at(0))).toBe(2);
    expect(allowance.take('k', at(0))).toBe(true);
    allowance.giveBack('k', at(0));
    expect(allowance.take('k', at(0))).toBe(true);
    expect(allowance.take('k', at(0))).toBe(false);
  });
});
