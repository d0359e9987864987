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
  bodyNotObject: 'body: doit être un objet JSON',
  invalidJson: 'body: JSON invalide',
  tooDeep: `body: imbrication trop profonde (${MAX_JSON_DEPTH} niveaux au plus)`,
} as const;
