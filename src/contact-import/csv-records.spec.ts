import fc from 'fast-check';
import { parseOnHalfThread, stopHalfThread } from './csv-half.js';
import { CsvFailure, HALVES_FROM_BYTES, parseRecords, parseSecondHalf, type SecondHalfParser } from './csv-records.js';

const onThisThread: SecondHalfParser = async (half, delimiter, recordDelimiter) => parseSecondHalf(half, delimiter, recordDelimiter);

/** The records, or where and why csv-parse stopped. */
const outcome = (parsing: Promise<string[][]>) =>
  parsing.then(
    (records) => ({ records }),
    (error: unknown) => {
      if (!(error instanceof CsvFailure)) throw error;
      return { code: error.code, at: error.records };
    },
  );

const wholeFile = (bytes: Buffer) => outcome(parseRecords(bytes, ',', null));

/** A file of at least `bytes`: plain rows around `middle`, which lands near the place the file is cut. */
function fileAround(bytes: number, header: string, middle: string, lineEnd: string, shift: number): Buffer {
  const row = `+2250707070701,Awa Koné${lineEnd}`;
  const half = Math.ceil(bytes / 2 / row.length) + 1;
  return Buffer.from(`${header}${lineEnd}${row.repeat(half)}${'x'.repeat(shift)}${middle}${lineEnd}${row.repeat(half)}`);
}

/** Files cut in two from this size in the property below: small, so that it tries many. */
const SMALL = 200;

describe('parseRecords', () => {
  afterAll(() => stopHalfThread());

  it('reads a large file cut in two as it reads it whole, whatever lies where it is cut', async () => {
    const text = (maxLength: number) => fc.stringMatching(new RegExp(`^[ab,;" \\r\\n]{0,${maxLength}}$`));
    let cut = 0;
    const counted: SecondHalfParser = (...half) => {
      cut++;
      return onThisThread(...half);
    };
    await fc.assert(
      fc.asyncProperty(text(8), text(60), fc.constantFrom('\n', '\r\n'), fc.nat(40), async (header, middle, lineEnd, shift) => {
        const bytes = fileAround(SMALL, header, middle, lineEnd, shift);
        expect(await outcome(parseRecords(bytes, ',', counted, SMALL))).toEqual(await wholeFile(bytes));
      }),
      { numRuns: 3_000 },
    );
    // most files are cut: the property is not only that of the whole-file fallback
    expect(cut).toBeGreaterThan(1_000);
  });

  it('parses the second half on its thread, quoted line breaks and a failure past the cut included', async () => {
    const quoted = fileAround(HALVES_FROM_BYTES, 'phone,name', '+2250707070702,"deux\r\nlignes"', '\r\n', 3);
    const broken = fileAround(HALVES_FROM_BYTES, 'phone,name', '+2250707070702,"ouvert', '\n', 0);

    expect(await outcome(parseRecords(quoted, ',', parseOnHalfThread))).toEqual(await wholeFile(quoted));
    const failure = await outcome(parseRecords(broken, ',', parseOnHalfThread));
    expect(failure).toEqual(await wholeFile(broken));
    expect(failure).toMatchObject({ code: 'CSV_QUOTE_NOT_CLOSED' });
  });
});
