import { decodeChunk, encodeChunk } from './chunk-wire.js';
import type { Classified } from './import-chunks.js';

const phone = { e164: '+2250707070701', dialCode: '+225', country: 'CI' };

describe('encodeChunk', () => {
  it('gives back every row as it was, each field given or not, every kind of row', () => {
    const chunk: Classified[] = [
      { row: 2, kind: 'valid', input: { phone }, optedOut: false },
      { row: 3, kind: 'valid', input: { phone, name: 'Awa Koné', email: 'awa@example.com', language: 'en', attributes: { ville: 'Abidjan' } }, optedOut: true },
      { row: 4, kind: 'valid', input: { phone: { e164: '+80012345678', dialCode: '+800', country: null }, email: 'x@example.com', attributes: {} }, optedOut: true },
      { row: 5, kind: 'valid', input: { phone, name: null, language: 'fr' }, optedOut: false },
      { row: 6, kind: 'invalid', errors: ['email: adresse e-mail invalide', 'opted_out: doit valoir true ou false'] },
      { row: 7, kind: 'blank' },
      { row: 8, kind: 'duplicate' },
    ];

    expect(decodeChunk(encodeChunk(chunk))).toEqual(chunk);
    expect(decodeChunk(encodeChunk([]))).toEqual([]);
  });
});
