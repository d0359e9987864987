import { detectDelimiter, ImportFileError, readCsvFile } from './csv-file.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

describe('readCsvFile', () => {
  it('reads the header and the records, quoted cells and line breaks in them included', async () => {
    const file = Buffer.from('phone,name\r\n+2250707070701,"Koné, Awa"\r\n+2250707070702,"deux\nlignes"\r\n\r\n+2250707070703\r\n');

    expect(await readCsvFile(file, null)).toEqual({
      header: ['phone', 'name'],
      records: [['+2250707070701', 'Koné, Awa'], ['+2250707070702', 'deux\nlignes'], [''], ['+2250707070703']],
    });
  });

  it('strips a byte-order mark and keeps a quote inside an unquoted cell', async () => {
    const file = Buffer.concat([BOM, Buffer.from('phone;name\n+2250707070701;l"Ami\n')]);

    expect(await readCsvFile(file, null)).toEqual({ header: ['phone', 'name'], records: [['+2250707070701', 'l"Ami']] });
  });

  it('reads a file larger than one slice, with characters cut between two slices', async () => {
    const rows = Array.from({ length: 20_000 }, (_, n) => `+22505${10_000_000 + n},Éloïse ${n}`);
    const { records } = await readCsvFile(Buffer.from(`phone,name\n${rows.join('\n')}\n`), ',');

    expect(records).toHaveLength(20_000);
    expect(records.every((record, n) => record[1] === `Éloïse ${n}`)).toBe(true);
  });

  it('uses the delimiter it is given', async () => {
    expect((await readCsvFile(Buffer.from('phone;name,first\n+2250707070701;Koné, Awa\n'), ';')).records).toEqual([['+2250707070701', 'Koné, Awa']]);
  });

  it.each([
    ['Latin-1 text', Buffer.from('phone;nom\n+2250707070701;Koné\n', 'latin1'), 0, 'fichier: encodage UTF-8 attendu'],
    ['an Excel workbook', Buffer.from('PK\x03\x04xl/workbook.xml', 'latin1'), 0, 'fichier: classeur Excel reçu, enregistrez-le au format CSV UTF-8'],
    ['an empty header', Buffer.from(',,\n+2250707070701,,\n'), 1, "fichier: ligne d'en-tête obligatoire"],
    ['a quote not closed', Buffer.from('phone\n+2250707070701\n"+2250707070702\n'), 3, 'fichier: CSV illisible (guillemet non fermé)'],
  ])('refuses %s whole', async (_, file, row, message) => {
    const failure = await readCsvFile(file, null).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ImportFileError);
    expect(failure).toMatchObject({ row, message });
  });
});

describe('detectDelimiter', () => {
  it.each([
    ['phone,name,email', ','],
    ['phone;name;email', ';'],
    ['phone;"name, first";email\n+225,a,b,c,d', ';'],
    ['phone', ','],
  ])('reads %j as delimited by %j', (text, delimiter) => {
    expect(detectDelimiter(text)).toBe(delimiter);
  });
});
