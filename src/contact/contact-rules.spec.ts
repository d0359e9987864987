import { validateAs } from '../common/validation/request-validation.pipe.js';
import { readContactInput, toContactInput } from './contact-dto.mapping.js';
import { contactProblems } from './contact-rules.js';
import { ContactInputDto } from './dto/contact-input.dto.js';

const PHONE = '+2250707070707';

/** Bodies as clients send them, one or more fields wrong in each. */
const BODIES: Array<Record<string, unknown>> = [
  { phone: PHONE },
  { phone: PHONE, name: '  Awa Koné ', email: ' AWA@Example.com', language: 'en', attributes: { ville: 'Abidjan' }, default_country: 'CI' },
  { phone: '07 07 07 07 07', default_country: 'CI' },
  { phone: PHONE, name: null, email: null, language: null, attributes: null, default_country: null },
  {},
  { phone: null },
  { phone: 2250707070707 },
  { phone: '0707' },
  { phone: '07 07 07 07 07' },
  { phone: '07 07 07 07 07', default_country: 'XX' },
  { phone: PHONE, default_country: 'ci' },
  { phone: PHONE, name: 'x'.repeat(100) },
  { phone: PHONE, name: 'x'.repeat(101) },
  { phone: PHONE, name: '😀'.repeat(100) },
  { phone: PHONE, name: 12 },
  { phone: PHONE, email: 'awa@' },
  { phone: PHONE, email: ['awa@example.com'] },
  { phone: PHONE, language: 'de' },
  { phone: PHONE, language: 'FR' },
  { phone: PHONE, attributes: ['ville'] },
  { phone: PHONE, attributes: { Ville: 'Abidjan' } },
  { phone: PHONE, attributes: { ville: 3 } },
  { phone: PHONE, attributes: { ville: 'y'.repeat(256) } },
  { phone: PHONE, attributes: Object.fromEntries(Array.from({ length: 21 }, (_, n) => [`k${n}`, 'v'])) },
  { phone: '0707', name: 1, email: 'awa@', language: 'de', attributes: [], default_country: 'XX' },
];

describe('contactProblems', () => {
  it.each(BODIES.map((body) => [JSON.stringify(body).slice(0, 80), body]))('reports what ContactInputDto reports for %s', (_, body) => {
    expect(contactProblems(body)).toEqual(validateAs(ContactInputDto, body).errors);
  });

  it('names each field with its problem, in the order of the fields', () => {
    expect(contactProblems({ phone: '0707', name: 'x'.repeat(101), email: 'awa@', language: 'de', attributes: [], default_country: 'XX' })).toEqual([
      'phone: numéro de téléphone invalide (format international attendu, par exemple +2250707070707)',
      'name: ne doit pas dépasser 100 caractères',
      'email: adresse e-mail invalide',
      'language: doit valoir fr, en, es ou pt',
      'attributes: doit être un objet',
      'default_country: doit être un code pays ISO 3166-1 à deux lettres majuscules (CI, SN…)',
    ]);
    expect(contactProblems({ name: 'Awa' })).toEqual(['phone: est obligatoire']);
  });
});

describe('readContactInput', () => {
  it('reads a valid contact as a checked body is read', () => {
    for (const body of BODIES.filter((candidate) => contactProblems(candidate).length === 0)) {
      expect(readContactInput(body)).toEqual({ input: toContactInput(validateAs(ContactInputDto, body).dto) });
    }
  });

  it('gives the problems of an invalid one', () => {
    expect(readContactInput({ phone: '0707' })).toEqual({ errors: ['phone: numéro de téléphone invalide (format international attendu, par exemple +2250707070707)'] });
  });
});
