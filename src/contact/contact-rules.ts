import { isIn, isString, maxLength } from 'class-validator';
import { EMAIL_INVALID, isPhoneCountry, parseEmail, PHONE_INVALID, readPhone, type PhoneNumber } from '../common/recipient.js';
import { Messages } from '../common/validation/messages.js';
import { rule, type StatedSchema } from '../common/validation/rule.js';
import { isPlainObject } from '../common/validation/request-validation.pipe.js';
import { COUNTRY_INVALID, COUNTRY_SCHEMA } from '../common/validation/shared-rules.js';
import { LANGUAGES } from '../common/language.js';

export const MAX_ATTRIBUTES = 20;
const ATTRIBUTE_KEY = /^[a-z0-9_]{1,32}$/;
const MAX_ATTRIBUTE_VALUE = 255;

/** The schema of `attributes`, stated by the rule that checks it. */
const ATTRIBUTES_SCHEMA = {
  type: 'object',
  additionalProperties: { type: 'string', maxLength: MAX_ATTRIBUTE_VALUE },
  propertyNames: { pattern: ATTRIBUTE_KEY.source },
  maxProperties: MAX_ATTRIBUTES,
};

/** The problem with an `attributes` object, or null: at most 20 keys `[a-z0-9_]{1,32}` with text values of at most 255 characters. */
export function attributesProblem(value: unknown): string | null {
  if (!isPlainObject(value)) return 'doit être un objet';
  const entries = Object.entries(value);
  if (entries.length > MAX_ATTRIBUTES) return `${MAX_ATTRIBUTES} clés au plus`;
  for (const [key, text] of entries) {
    if (!ATTRIBUTE_KEY.test(key)) return `clé « ${key.slice(0, 40)} » invalide (a-z, 0-9 et _, 32 caractères au plus)`;
    if (typeof text !== 'string') return `${key}: doit être une chaîne de caractères`;
    if (text.length > MAX_ATTRIBUTE_VALUE) return `${key}: ne doit pas dépasser ${MAX_ATTRIBUTE_VALUE} caractères`;
  }
  return null;
}

export const MAX_NAME_LENGTH = 100;

/** The first problem with one field of a contact, or null; `fields` is the whole contact (a phone is read in its `default_country`). */
type FieldCheck = (value: unknown, fields: object) => string | null;

const required =
  (check: FieldCheck): FieldCheck =>
  (value, fields) =>
    value === undefined || value === null ? Messages.required : check(value, fields);

/** A field that may be left out, but not null. */
const optional =
  (check: FieldCheck): FieldCheck =>
  (value, fields) =>
    value === undefined ? null : value === null ? Messages.notNull : check(value, fields);

/** A field that may be left out or null (which clears it). */
const nullable =
  (check: FieldCheck): FieldCheck =>
  (value, fields) =>
    value === undefined || value === null ? null : check(value, fields);

/** A text, then checked by `check`. */
const text =
  (check: (value: string, fields: object) => string | null): FieldCheck =>
  (value, fields) =>
    isString(value) ? check(value as string, fields) : Messages.string;

/**
 * The rules of a contact's fields as clients write them, in the order their
 * problems are reported: ContactInputDto checks a request's body with them,
 * `contactProblems` a contact read from elsewhere (a CSV row, an item of a bulk request).
 */
export const CONTACT_FIELDS = {
  phone: required(text((phone, fields) => (readContactPhone(phone, fields) ? null : PHONE_INVALID))),
  name: nullable(text((name) => (maxLength(name, MAX_NAME_LENGTH) ? null : Messages.maxLength(MAX_NAME_LENGTH)))),
  email: nullable(text((email) => (parseEmail(email) ? null : EMAIL_INVALID))),
  language: optional((language) => (isIn(language, LANGUAGES) ? null : Messages.oneOf(LANGUAGES))),
  attributes: optional(attributesProblem),
  default_country: optional((country) => (isPhoneCountry(country) ? null : COUNTRY_INVALID)),
} satisfies Record<string, FieldCheck>;

export type ContactField = keyof typeof CONTACT_FIELDS;

/** What the rules of CONTACT_FIELDS state in a property's schema beyond its type. */
const CONTACT_FIELD_SCHEMAS: Partial<Record<ContactField, StatedSchema>> = {
  name: { maxLength: MAX_NAME_LENGTH },
  email: { format: 'email' },
  language: { enum: [...LANGUAGES] },
  attributes: ATTRIBUTES_SCHEMA as StatedSchema,
  default_country: COUNTRY_SCHEMA,
};

/** Checks a DTO property by its rule in CONTACT_FIELDS. */
export const IsContactField = (field: ContactField) =>
  rule(
    `contact_${field}`,
    (value, args) => CONTACT_FIELDS[field](value, args.object) === null,
    (args) => CONTACT_FIELDS[field](args.value, args.object) ?? '',
    CONTACT_FIELD_SCHEMAS[field],
  )();

const CONTACT_FIELD_NAMES = Object.keys(CONTACT_FIELDS) as ContactField[];

/** A contact's problems, one `<field>: <text>` per invalid field, as ContactInputDto reports them. */
export function contactProblems(fields: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  for (const field of CONTACT_FIELD_NAMES) {
    const problem = CONTACT_FIELDS[field](fields[field], fields);
    if (problem !== null) problems.push(`${field}: ${problem}`);
  }
  return problems;
}

/** The phone read last: a contact's phone is checked, then read into its input (toContactInput), one right after the other. */
let lastRead: { text: string; country: string | undefined; phone: Readonly<PhoneNumber> | null } | undefined;

/** A contact's phone as its rule reads it: in the contact's `default_country` when it has a valid one. */
export function readContactPhone(text: string, fields: object): Readonly<PhoneNumber> | null {
  const country = defaultCountryOf(fields);
  if (lastRead?.text !== text || lastRead.country !== country) lastRead = { text, country, phone: readPhone(text, country) };
  return lastRead.phone;
}

const defaultCountryOf = (object: object): string | undefined => {
  const country = (object as { default_country?: unknown }).default_country;
  return isPhoneCountry(country) ? country : undefined;
};
