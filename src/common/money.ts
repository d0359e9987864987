/**
 * Money is kept as integers in hundredths of the account currency and shown as
 * JSON numbers with at most two decimals.
 */
export const toAmount = (hundredths: number): number => hundredths / 100;

/** Parses an amount with at most two decimals; null when it has more or is not finite. */
export function toHundredths(amount: number | string): number | null {
  const text = String(amount).trim();
  if (!/^-?\d+(\.\d{1,2})?$/.test(text)) return null;
  const [units, fraction = ''] = text.replace('-', '').split('.');
  const value = Number(units) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(value)) return null;
  return text.startsWith('-') ? -value : value;
}
