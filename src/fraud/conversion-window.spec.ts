import { conversionChanges, CONVERSION_WINDOW_MS, type CodeRange } from './conversion-window.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Code {
  created: number;
  ends: number;
}

const inRange = (code: Code, range: CodeRange) =>
  code.created >= range.createdFrom.getTime() &&
  code.created < range.createdTo.getTime() &&
  (range.endedAfter === null || code.ends > range.endedAfter.getTime()) &&
  code.ends <= range.endedBy.getTime();

/** The codes counted as of `at`, by definition: created in the 24 hours before it, validity ended by it. */
const countedAt = (codes: Code[], at: number) => codes.filter((code) => code.created >= at - CONVERSION_WINDOW_MS && code.created < at && code.ends <= at);

describe(conversionChanges.name, () => {
  it('counts the day at the first run', () => {
    const now = new Date(100 * HOUR);
    expect(conversionChanges(null, now)).toEqual({
      joining: { createdFrom: new Date(76 * HOUR), createdTo: now, endedAfter: null, endedBy: now },
      leaving: null,
    });
  });

  it('changes nothing when the clock is not past the last count', () => {
    expect(conversionChanges(new Date(HOUR), new Date(HOUR))).toBeNull();
    expect(conversionChanges(new Date(HOUR), new Date(HOUR - 1))).toBeNull();
  });

  it('reads a minute of codes created a day ago and the codes of the last validity, not the day', () => {
    const changes = conversionChanges(new Date(100 * HOUR), new Date(100 * HOUR + MINUTE))!;
    expect(changes.joining).toEqual({ createdFrom: new Date(99 * HOUR), createdTo: new Date(100 * HOUR + MINUTE), endedAfter: new Date(100 * HOUR), endedBy: new Date(100 * HOUR + MINUTE) });
    expect(changes.leaving).toEqual({ createdFrom: new Date(76 * HOUR), createdTo: new Date(76 * HOUR + MINUTE), endedAfter: null, endedBy: new Date(100 * HOUR) });
  });

  it('keeps exactly the codes of the definition over runs at any intervals, gaps of more than a day included', () => {
    let seed = 7;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    const codes: Code[] = Array.from({ length: 3000 }, () => {
      const created = Math.floor(random() * 80 * HOUR);
      return { created, ends: created + MINUTE + Math.floor(random() * (HOUR - MINUTE)) };
    });
    let counted = new Set<Code>();
    let countedTo: Date | null = null;
    let now = 0;
    for (let run = 0; run < 200; run++) {
      now += random() < 0.05 ? Math.floor(random() * 30 * HOUR) : Math.floor(random() * 20 * MINUTE);
      const changes = conversionChanges(countedTo, new Date(now));
      if (!changes) continue;
      for (const code of changes.leaving ? codes.filter((each) => inRange(each, changes.leaving!)) : []) {
        expect(counted.delete(code)).toBe(true);
      }
      for (const code of codes.filter((each) => inRange(each, changes.joining))) {
        expect(counted.has(code)).toBe(false);
        counted.add(code);
      }
      countedTo = new Date(now);
      expect(counted).toEqual(new Set(countedAt(codes, now)));
    }
  });
});
