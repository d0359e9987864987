import { readContactInput } from '../contact/contact-dto.mapping.js';
import type { ContactInput } from '../contact/contact-writer.js';
import type { Column } from './import-columns.js';

/** One data row of the file, checked. `row` is its spreadsheet row number (the header is row 1). */
export type ImportRow =
  | { row: number; kind: 'valid'; input: ContactInput; optedOut: boolean }
  | { row: number; kind: 'invalid'; errors: string[] }
  /** Every cell empty: not counted. */
  | { row: number; kind: 'blank' };

const TRUE_TEXTS = new Set(['true', 'vrai', 'oui', 'yes', '1']);
const FALSE_TEXTS = new Set(['false', 'faux', 'non', 'no', '0', '']);

/**
 * A data row read through the header's columns and checked as `POST /contact`
 * checks a contact. Cells are trimmed; an empty cell is a field not given (so
 * `on_duplicate: update` leaves it as it is).
 */
export function readRow(cells: readonly string[], columns: readonly Column[], row: number, defaultCountry: string | null): ImportRow {
  const fields: Record<string, unknown> = {};
  const attributes: Record<string, string> = {};
  const errors: string[] = [];
  let optedOut = false;
  let blank = true;
  cells.forEach((cell, index) => {
    const value = cell.trim();
    if (value === '') return;
    blank = false;
    const column = columns[index];
    if (!column) errors.push(`ligne: ${cells.length} cellules, l'en-tête a ${columns.length} colonnes`);
    else if (column.kind === 'attribute') attributes[column.key] = value;
    else if (column.kind === 'opted_out') optedOut = readOptedOut(value, errors);
    else if (column.kind === 'language') fields.language = value.toLowerCase();
    else if (column.kind !== 'ignored') fields[column.kind] = value;
  });
  if (blank) return { row, kind: 'blank' };
  if (Object.keys(attributes).length > 0) fields.attributes = attributes;
  if (defaultCountry !== null) fields.default_country = defaultCountry;
  const contact = readContactInput(fields);
  if ('input' in contact && errors.length === 0) return { row, kind: 'valid', input: contact.input, optedOut };
  return { row, kind: 'invalid', errors: [...new Set(['errors' in contact ? contact.errors : [], errors].flat())] };
}

function readOptedOut(value: string, errors: string[]): boolean {
  const text = value.toLowerCase();
  if (TRUE_TEXTS.has(text)) return true;
  if (!FALSE_TEXTS.has(text)) errors.push('opted_out: doit valoir true ou false');
  return false;
}
