import { encodingOf, segment } from './segments.js';

const EXTENSION = ['€', '[', ']', '{', '}', '^', '~', '\\', '|', '\f'];
const CYRILLIC = 'ж';
const EMOJI = '😀';

describe('encodingOf', () => {
  it('is GSM-7 for the basic set', () => {
    expect(encodingOf('Hello @£$¥ èéùìòÇ Øø Åå Δ_ΦΓΛΩΠΨΣΘΞ ÆæßÉ !"#¤%&\'()*+,-./09:;<=>? ¡AZÄÖÑÜ§¿azäöñüà\n\r')).toBe(
      'GSM7',
    );
  });

  it('is GSM-7 for the extension table', () => {
    expect(encodingOf(EXTENSION.join(''))).toBe('GSM7');
  });

  it.each([['ç'], ['`'], [CYRILLIC], [EMOJI], ['ł']])('is UCS-2 as soon as one character (%j) is outside GSM 03.38', (char) => {
    expect(encodingOf(`Votre code ${char}`)).toBe('UCS2');
  });
});

describe('segment', () => {
  it('keeps 160 GSM-7 characters in one part', () => {
    const text = 'a'.repeat(160);
    expect(segment(text)).toEqual({ encoding: 'GSM7', parts: [text] });
  });

  it('splits 161 GSM-7 characters into 153 + 8', () => {
    expect(segment('a'.repeat(161))).toEqual({ encoding: 'GSM7', parts: ['a'.repeat(153), 'a'.repeat(8)] });
  });

  it('fills GSM-7 parts with 153 septets', () => {
    expect(segment('a'.repeat(306)).parts.map((part) => part.length)).toEqual([153, 153]);
    expect(segment('a'.repeat(307)).parts.map((part) => part.length)).toEqual([153, 153, 1]);
  });

  it.each(EXTENSION)('counts the extension character %j as two septets', (char) => {
    expect(segment(char.repeat(80)).parts).toHaveLength(1);
    expect(segment(`${char.repeat(80)}a`).parts).toHaveLength(2);
  });

  it('never splits an escape pair across parts', () => {
    const text = `${'a'.repeat(152)}€${'a'.repeat(10)}`;
    expect(segment(text)).toEqual({ encoding: 'GSM7', parts: ['a'.repeat(152), `€${'a'.repeat(10)}`] });
  });

  it('keeps 70 UCS-2 characters in one part', () => {
    const text = CYRILLIC.repeat(70);
    expect(segment(text)).toEqual({ encoding: 'UCS2', parts: [text] });
  });

  it('splits 71 UCS-2 characters into 67 + 4', () => {
    expect(segment(CYRILLIC.repeat(71))).toEqual({ encoding: 'UCS2', parts: [CYRILLIC.repeat(67), CYRILLIC.repeat(4)] });
  });

  it('fills UCS-2 parts with 67 units', () => {
    expect(segment(CYRILLIC.repeat(134)).parts.map((part) => part.length)).toEqual([67, 67]);
    expect(segment(CYRILLIC.repeat(135)).parts.map((part) => part.length)).toEqual([67, 67, 1]);
  });

  it('counts an astral character as two UCS-2 units', () => {
    expect(segment(EMOJI.repeat(35)).parts).toHaveLength(1);
    expect(segment(EMOJI.repeat(36)).parts).toEqual([EMOJI.repeat(33), EMOJI.repeat(3)]);
  });

  it('never splits a surrogate pair across parts', () => {
    const text = `${CYRILLIC.repeat(66)}${EMOJI}${CYRILLIC.repeat(10)}`;
    expect(segment(text)).toEqual({ encoding: 'UCS2', parts: [CYRILLIC.repeat(66), `${EMOJI}${CYRILLIC.repeat(10)}`] });
  });

  it.each([
    ['GSM-7', `Votre code est 482913. ${'{€} [~] '.repeat(40)}Fin.`],
    ['UCS-2', `Votre code est 482913 ${EMOJI}. ${'Привет мир! '.repeat(30)}${EMOJI}`],
  ])('gives %s parts that concatenate back to the text', (_encoding, text) => {
    const { parts } = segment(text);
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.join('')).toBe(text);
  });

  it('gives one empty part for an empty text', () => {
    expect(segment('')).toEqual({ encoding: 'GSM7', parts: [''] });
  });
});
