import { hasPlaceholders, personalise, type Personalisation } from './personalise.js';

const awa: Personalisation = { name: 'Awa Koné', attributes: { ville: 'Abidjan', code_client: 'C-42' } };

describe('personalise', () => {
  it('fills ##NAME## with the contact name and ##KEY## with its attribute', () => {
    expect(personalise('Bonjour ##NAME##, votre agence de ##VILLE## (##code_client##)', awa)).toBe('Bonjour Awa Koné, votre agence de Abidjan (C-42)');
  });

  it('matches placeholders without case', () => {
    expect(personalise('##name## ##Name## ##Ville## ##CODE_CLIENT##', awa)).toBe('Awa Koné Awa Koné Abidjan C-42');
  });

  it('fills every occurrence of a placeholder', () => {
    expect(personalise('##NAME##, ##NAME##!', awa)).toBe('Awa Koné, Awa Koné!');
  });

  it('leaves an empty text for what the contact lacks: an unknown attribute, no name', () => {
    expect(personalise('[##NAME##] [##QUARTIER##]', { name: null, attributes: {} })).toBe('[] []');
  });

  it('leaves an empty text for every placeholder of a number with no contact', () => {
    expect(personalise('Bonjour ##NAME## de ##VILLE##.', null)).toBe('Bonjour  de .');
  });

  it('inserts values literally, even those that look like replacement patterns', () => {
    expect(personalise('##NAME## / ##VILLE##', { name: '$& $1 $$', attributes: { ville: "$` $'" } })).toBe("$& $1 $$ / $` $'");
  });

  it('leaves alone what is not a placeholder: single hashes, spaces, other characters, keys over 32 characters', () => {
    const text = `#NAME# ## NAME ## ##NOM-CLIENT## ##${'A'.repeat(33)}## ##`;
    expect(personalise(text, awa)).toBe(text);
  });

  it('finds a placeholder inside a run of hashes', () => {
    expect(personalise('####NAME####', awa)).toBe('##Awa Koné##');
  });

  it('does not fill placeholders again inside the values it inserts', () => {
    expect(personalise('##NAME##', { name: '##VILLE##', attributes: { ville: 'Abidjan' } })).toBe('##VILLE##');
  });
});

describe('hasPlaceholders', () => {
  it.each([
    ['Bonjour ##NAME##', true],
    ['##ville##', true],
    ['Code ##A_1##.', true],
    ['Bonjour', false],
    ['## NAME ##', false],
    ['#NAME#', false],
    [`##${'A'.repeat(33)}##`, false],
  ])('%j → %s', (text, expected) => {
    expect(hasPlaceholders(text)).toBe(expected);
  });

  it('answers the same when called again on the same text', () => {
    expect([hasPlaceholders('##NAME##'), hasPlaceholders('##NAME##'), hasPlaceholders('##NAME##')]).toEqual([true, true, true]);
  });
});
