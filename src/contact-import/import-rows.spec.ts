import type { Column } from './import-columns.js';
import { readRow } from './import-rows.js';

const COLUMNS: Column[] = [{ kind: 'phone' }, { kind: 'name' }, { kind: 'email' }, { kind: 'language' }, { kind: 'opted_out' }, { kind: 'attribute', key: 'ville' }];

describe('readRow', () => {
  it('reads a contact, trimmed, its e-mail and language lower-cased, empty cells left out', () => {
    expect(readRow([' +225 07 07 07 07 01 ', ' Awa Koné ', 'AWA@Example.com', 'EN', 'oui', 'Abidjan'], COLUMNS, 2, null)).toEqual({
      row: 2,
      kind: 'valid',
      input: { phone: { e164: '+2250707070701', dialCode: '+225', country: 'CI' }, name: 'Awa Koné', email: 'awa@example.com', language: 'en', attributes: { ville: 'Abidjan' } },
      optedOut: true,
    });
    expect(readRow(['+2250707070701', '', '', '', '', ''], COLUMNS, 3, null)).toEqual({
      row: 3,
      kind: 'valid',
      input: { phone: { e164: '+2250707070701', dialCode: '+225', country: 'CI' } },
      optedOut: false,
    });
  });

  it('reads a national number in the default country', () => {
    expect(readRow(['07 07 07 07 01'], COLUMNS, 2, 'CI')).toMatchObject({ kind: 'valid', input: { phone: { e164: '+2250707070701' } } });
  });

  it('reports every invalid field of a row', () => {
    expect(readRow(['0707', 'x'.repeat(101), 'awa@', 'de', 'peut-être', 'y'.repeat(256), 'extra'], COLUMNS, 7, null)).toEqual({
      row: 7,
      kind: 'invalid',
      errors: [
        'phone: numéro de téléphone invalide (format international attendu, par exemple +2250707070707)',
        'name: ne doit pas dépasser 100 caractères',
        'email: adresse e-mail invalide',
        'language: doit valoir fr, en, es ou pt',
        'attributes: ville: ne doit pas dépasser 255 caractères',
        'opted_out: doit valoir true ou false',
        "ligne: 7 cellules, l'en-tête a 6 colonnes",
      ],
    });
  });

  it('asks for the phone of a row without one', () => {
    expect(readRow(['', 'Awa'], COLUMNS, 4, null)).toEqual({ row: 4, kind: 'invalid', errors: ['phone: est obligatoire'] });
  });

  it('passes over a row whose every cell is empty', () => {
    expect(readRow(['', ' ', ''], COLUMNS, 5, null)).toEqual({ row: 5, kind: 'blank' });
    expect(readRow([''], COLUMNS, 6, null)).toEqual({ row: 6, kind: 'blank' });
  });
});
