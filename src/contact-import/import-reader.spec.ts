import { Worker } from 'node:worker_threads';
import { ImportFileError } from './csv-file.js';
import { ImportReader } from './import-reader.js';
import type { ReaderCall, ReaderReply, ReaderRequest } from './import-reader.thread.js';

const phone = (n: number) => `+22505${10_000_000 + n}`;

describe(ImportReader.name, () => {
  const reader = new ImportReader();
  afterAll(() => reader.onApplicationShutdown());

  it('reads a file on its thread 500 records at a time, a phone seen earlier in the file a duplicate', async () => {
    const rows = Array.from({ length: 1_200 }, (_, n) => (n === 700 ? '' : n === 1_100 ? phone(3) : `${phone(n)},Contact ${n}`));
    const file = await reader.open('job-1', Buffer.from(`phone,name\n${rows.join('\n')}\n`), { delimiter: null, defaultCountry: null, position: 0 });

    expect({ records: file.records, rows: file.rows }).toEqual({ records: 1_200, rows: 1_199 });
    const chunks = [await file.next(), await file.next(), await file.next(), await file.next()];
    file.close();
    expect(chunks.map((chunk) => chunk.length)).toEqual([500, 500, 200, 0]);
    expect(chunks[0]![3]).toEqual({
      row: 5,
      kind: 'valid',
      input: { phone: { e164: phone(3), dialCode: '+225', country: 'CI' }, name: 'Contact 3' },
      optedOut: false,
    });
    expect(chunks[1]![200]).toEqual({ row: 702, kind: 'blank' });
    expect(chunks[2]![100]).toEqual({ row: 1_102, kind: 'duplicate' });
  });

  it('goes on from a position, knowing the phones of the rows before it', async () => {
    const rows = Array.from({ length: 600 }, (_, n) => (n === 550 ? phone(10) : phone(n)));
    const file = await reader.open('job-2', Buffer.from(`telephone\n${rows.join('\n')}\n`), { delimiter: null, defaultCountry: null, position: 500 });
    const chunk = await file.next();
    file.close();

    expect(chunk).toHaveLength(100);
    expect(chunk[0]).toMatchObject({ row: 502, kind: 'valid', input: { phone: { e164: phone(500) } } });
    expect(chunk[50]).toEqual({ row: 552, kind: 'duplicate' });
  });

  it('checks rows as POST /contact checks a contact, in the default country', async () => {
    const file = await reader.open('job-3', Buffer.from('numero;email\n07 07 07 07 01;awa@\n07 07 07 07 02;AWA@example.com\n'), {
      delimiter: null,
      defaultCountry: 'CI',
      position: 0,
    });
    const chunk = await file.next();
    file.close();

    expect(chunk).toEqual([
      { row: 2, kind: 'invalid', errors: ['email: adresse e-mail invalide'] },
      {
        row: 3,
        kind: 'valid',
        input: { phone: { e164: '+2250707070702', dialCode: '+225', country: 'CI' }, email: 'awa@example.com' },
        optedOut: false,
      },
    ]);
  });

  it('refuses a file it cannot import, with the row at fault', async () => {
    const refusal = (content: Buffer) => reader.open('job-4', content, { delimiter: null, defaultCountry: null, position: 0 });

    await expect(refusal(Buffer.from('phone,name\n+2250707070701,Eloïse\n', 'latin1'))).rejects.toEqual(
      new ImportFileError(0, 'fichier: encodage UTF-8 attendu'),
    );
    await expect(refusal(Buffer.from('name,email\nAwa,awa@example.com\n'))).rejects.toBeInstanceOf(ImportFileError);
    await expect(refusal(Buffer.from('phone,name\n+2250707070701,"Awa\n'))).rejects.toMatchObject({
      row: 2,
      message: 'fichier: CSV illisible (guillemet non fermé)',
    });
  });

  it('opens the file prepared for a job from the start, and reads the content given when it goes on from a position', async () => {
    const prepared = Buffer.from(`phone\n${phone(1)}\n${phone(2)}\n`);
    const given = Buffer.from(`phone\n${Array.from({ length: 600 }, (_, n) => phone(1_000 + n)).join('\n')}\n`);
    const firstPhones = async (position: number) => {
      const file = await reader.open('job-5', given, { delimiter: null, defaultCountry: null, position });
      const chunk = await file.next();
      file.close();
      return chunk.slice(0, 2).map((entry) => (entry.kind === 'valid' ? entry.input.phone.e164 : entry.kind));
    };

    reader.prepare('job-5', prepared, { delimiter: null, defaultCountry: null });
    expect(await firstPhones(0)).toEqual([phone(1), phone(2)]);
    // taken once: the next open reads its content
    expect(await firstPhones(0)).toEqual([phone(1_000), phone(1_001)]);

    reader.prepare('job-5', prepared, { delimiter: null, defaultCountry: null });
    expect(await firstPhones(500)).toEqual([phone(1_500), phone(1_501)]);
  });

  it('refuses a prepared file it cannot import when it is opened', async () => {
    reader.prepare('job-6', Buffer.from('name\nAwa\n'), { delimiter: null, defaultCountry: null });
    await expect(reader.open('job-6', Buffer.from('name\nAwa\n'), { delimiter: null, defaultCountry: null, position: 0 })).rejects.toBeInstanceOf(
      ImportFileError,
    );
  });
});

describe('the reader thread', () => {
  it('keeps no file once its job has read it: ten 20,000-row imports in a row fit in a 48 MB heap', async () => {
    const thread = new Worker(new URL('../common/threads/typescript-thread.mjs', import.meta.url), {
      workerData: new URL('./import-reader.thread.ts', import.meta.url).href,
      resourceLimits: { maxOldGenerationSizeMb: 48 },
    });
    const lost = new Promise<never>((_, reject) => thread.once('error', reject));
    let id = 0;
    const ask = (call: ReaderCall) =>
      Promise.race([
        lost,
        new Promise<ReaderReply>((resolve) => {
          const request = { ...call, id: ++id } satisfies ReaderRequest;
          const answer = (reply: ReaderReply) => {
            if (reply.id !== request.id) return;
            thread.off('message', answer);
            resolve(reply);
          };
          thread.on('message', answer);
          thread.postMessage(request);
        }),
      ]);
    const options = { delimiter: null, defaultCountry: null };
    try {
      for (let file = 1; file <= 10; file++) {
        const content = Buffer.from(
          `phone,name,email\n${Array.from({ length: 20_000 }, (_, n) => `${phone(n)},Contact ${n},contact${n}@example.com`).join('\n')}\n`,
        );
        thread.postMessage({ type: 'prepare', file: 0, id: ++id, job: `job-${file}`, content, ...options } satisfies ReaderRequest);
        expect(await ask({ type: 'open', file, job: `job-${file}`, content, position: 0, ...options })).toMatchObject({
          type: 'opened',
          rows: 20_000,
        });
        let rows = 0;
        for (let chunk = await ask({ type: 'next', file }); chunk.type === 'chunk' && chunk.rows !== '[]'; chunk = await ask({ type: 'next', file }))
          rows += 500;
        thread.postMessage({ type: 'close', file, id: ++id } satisfies ReaderRequest);
        expect(rows).toBe(20_000);
      }
    } finally {
      await thread.terminate();
    }
  }, 60_000);
});
