import { MAX_JSON_DEPTH } from '../http/json-shape.js';

/** Validation texts; each error reads `<field>: <text>`. */
export const Messages = {
  required: 'est obligatoire',
  string: 'doit être une chaîne de caractères',
  integer: 'doit être un entier',
  boolean: 'doit être un booléen',
  notEmpty: 'ne doit pas être vide',
  oneOf: (values: readonly string[]) => `doit valoir ${values.join(', ').replace(/, ([^,]*)$/, ' ou $1')}`,
  between: (min: number, max: number) => `doit être compris entre ${min} et ${max}`,
  maxLength: (max: number) => `ne doit pas dépasser ${max} caractères`,
  unknownField: 'champ inconnu',
  /** The problem of one item of a list, reported as `<field>[<index>]: <text>` (SPEC-2 §0). */
  item: (index: number, text: string) => `[${index}]: ${text}`,
  notNull: 'ne doit pas être null',
  bodyNotObject: 'body: doit être un objet JSON',
  invalidJson: 'body: JSON invalide',
  notUtf8: 'body: texte non UTF-8',
  tooDeep: `body: imbrication trop profonde (${MAX_JSON_DEPTH} niveaux au plus)`,
} as const;
