import { ImportFileError } from './csv-file.js';

/** What a column of the file holds. */
export type Column =
  | { kind: 'phone' | 'name' | 'email' | 'language' | 'opted_out' }
  | { kind: 'attribute'; key: string }
  /** A column without a name. */
  | { kind: 'ignored' };

const PHONE_NAMES = ['phone', 'phone_number', 'mobile', 'telephone', 'numero'];
const FIELD_NAMES = ['name', 'email', 'language', 'opted_out'] as const;

/**
 * The columns named by the header row. Names are compared without case,
 * accents or punctuation (`Téléphone` is `telephone`, `Phone Number` is
 * `phone_number`); the first phone alias is the phone, any other column an
 * attribute keyed by its compared name.
 */
export function readHeader(header: readonly string[]): Column[] {
  const seen = new Set<string>();
  let phone = false;
  const columns = header.map((cell): Column => {
    const name = columnKey(cell);
    if (name === '') return { kind: 'ignored' };
    if (seen.has(name)) throw new ImportFileError(1, `fichier: colonne « ${name} » en double dans l'en-tête`);
    seen.add(name);
    if (!phone && PHONE_NAMES.includes(name)) {
      phone = true;
      return { kind: 'phone' };
    }
    const field = FIELD_NAMES.find((known) => known === name);
    return field ? { kind: field } : { kind: 'attribute', key: name };
  });
  if (!phone) {
    const names = header.map((cell) => cell.trim()).filter((cell) => cell !== '');
    throw new ImportFileError(1, `fichier: colonne de téléphone introuvable (en-têtes: ${names.join(', ').slice(0, 200) || 'aucun'})`);
  }
  return columns;
}

/** A header cell as a key: lower case, accents dropped, every run of other characters than a-z and 0-9 made one `_`. */
export const columnKey = (cell: string): string =>
  cell
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
