/**
 * SMS segmentation (3GPP TS 23.038 / 23.040). GSM-7 when every character is
 * in the GSM 03.38 basic set or its extension table (extension characters take
 * two septets, an escape and the character); UCS-2 otherwise.
 */
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '\f^{}\\[~]|€';

const BASIC = new Set(GSM7_BASIC);
const EXTENSION = new Set(GSM7_EXTENSION);

export type SmsEncoding = 'GSM7' | 'UCS2';

const LIMITS: Record<SmsEncoding, { single: number; part: number }> = {
  GSM7: { single: 160, part: 153 },
  UCS2: { single: 70, part: 67 },
};

export interface Segmentation {
  encoding: SmsEncoding;
  /** The text of each part, in order; one part when the message fits in a single SMS. */
  parts: string[];
}

export function encodingOf(text: string): SmsEncoding {
  for (const char of text) {
    if (!BASIC.has(char) && !EXTENSION.has(char)) return 'UCS2';
  }
  return 'GSM7';
}

/** Size of one character: septets in GSM-7, UTF-16 units in UCS-2 (2 for an astral character). */
const widthOf = (char: string, encoding: SmsEncoding): number =>
  encoding === 'GSM7' ? (EXTENSION.has(char) ? 2 : 1) : char.length;

/**
 * Splits a message into SMS parts without cutting an escape pair (GSM-7) or a
 * surrogate pair (UCS-2).
 */
export function segment(text: string): Segmentation {
  const encoding = encodingOf(text);
  const { single, part } = LIMITS[encoding];
  const chars = Array.from(text);
  const total = chars.reduce((sum, char) => sum + widthOf(char, encoding), 0);
  if (total <= single) return { encoding, parts: [text] };

  const parts: string[] = [];
  let current = '';
  let used = 0;
  for (const char of chars) {
    const width = widthOf(char, encoding);
    if (used + width > part) {
      parts.push(current);
      current = '';
      used = 0;
    }
    current += char;
    used += width;
  }
  parts.push(current);
  return { encoding, parts };
}
