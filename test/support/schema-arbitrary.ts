import fc from 'fast-check';

/** A dereferenced JSON Schema (OpenAPI 3.1), as much of it as the API's request schemas use. */
export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  multipleOf?: number;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  propertyNames?: Schema;
  minProperties?: number;
  maxProperties?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  not?: Schema;
  example?: unknown;
}

/**
 * Values for the places where the document can only say "a string" for what
 * the service reads further (a phone number), keyed by their path in the body
 * (`to`, `to[]`, `contacts[].phone`); elsewhere values come from the schema.
 */
export type Hints = (path: string) => fc.Arbitrary<unknown> | undefined;

export interface GenerationContext {
  hints: Hints;
  /** The instants `date-time` values are drawn between. */
  dates: { min: Date; max: Date };
}

const NO_HINTS: Hints = () => undefined;

/** Values the schema describes (mostly: a pattern fast-check cannot read falls back to the example; callers filter with a validator). */
export function arbitraryOf(schema: Schema, context: Partial<GenerationContext> = {}, path = ''): fc.Arbitrary<unknown> {
  const full: GenerationContext = { hints: context.hints ?? NO_HINTS, dates: context.dates ?? { min: new Date(), max: new Date(Date.now() + 86_400_000) } };
  return generate(schema, full, path);
}

function generate(schema: Schema, context: GenerationContext, path: string): fc.Arbitrary<unknown> {
  const hinted = context.hints(path);
  if (hinted) return nullable(schema) ? fc.oneof(hinted, fc.constant(null)) : hinted;
  if (schema.allOf) return generate(merge(withoutKeys(schema, 'allOf'), ...schema.allOf), context, path);
  const alternatives = schema.oneOf ?? (isValueAlternatives(schema.anyOf) ? schema.anyOf : undefined);
  if (alternatives) {
    const base = withoutKeys(schema, 'oneOf', 'anyOf');
    return fc.oneof(...alternatives.map((alternative) => generate(merge(base, alternative), context, path)));
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const types = [schema.type ?? inferredType(schema)].flat();
  const values = types.filter((type) => type !== 'null').map((type) => ofType(type, schema, context, path));
  if (types.includes('null')) values.push(fc.constant(null));
  return values.length === 1 ? values[0] : fc.oneof(...values);
}

function ofType(type: string, schema: Schema, context: GenerationContext, path: string): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return text(schema, context);
    case 'integer':
      return fc.integer({ min: Math.ceil(schema.minimum ?? -1_000_000), max: Math.floor(schema.maximum ?? 1_000_000) });
    case 'number':
      return number(schema);
    case 'boolean':
      return fc.boolean();
    case 'array':
      return list(schema, context, path);
    case 'object':
      return object(schema, context, path);
    default:
      throw new Error(`${path}: no generator for type ${type}`);
  }
}

function text(schema: Schema, context: GenerationContext): fc.Arbitrary<string> {
  const length = { minLength: schema.minLength ?? 0, maxLength: schema.maxLength ?? Math.max(schema.minLength ?? 0, 40) };
  if (schema.format === 'date-time') return fc.date({ ...context.dates, noInvalidDate: true }).map((date) => date.toISOString());
  if (schema.format === 'uuid') return fc.uuid({ version: [4, 7] });
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'ipv4') return fc.ipV4();
  if (schema.format === 'ipv6') return fc.ipV6();
  if (schema.pattern !== undefined) {
    try {
      const matching = fc.stringMatching(new RegExp(schema.pattern));
      return schema.maxLength === undefined && schema.minLength === undefined
        ? matching
        : matching.filter((value) => value.length >= length.minLength && value.length <= length.maxLength);
    } catch {
      if (typeof schema.example === 'string') return fc.constant(schema.example);
      throw new Error(`no generator for the pattern ${schema.pattern}`);
    }
  }
  return fc.string(length);
}

function number(schema: Schema): fc.Arbitrary<number> {
  const [min, max] = [schema.minimum ?? -1_000_000, schema.maximum ?? 1_000_000];
  if (schema.multipleOf === undefined) return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  const step = schema.multipleOf;
  // a multiple written as a decimal (0.07), not as a product of floats (7 × 0.01 = 0.07000000000000001)
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  return fc.integer({ min: Math.ceil(min / step), max: Math.floor(max / step) }).map((n) => Number((n * step).toFixed(decimals)));
}

function list(schema: Schema, context: GenerationContext, path: string): fc.Arbitrary<unknown[]> {
  const items = generate(schema.items ?? {}, context, `${path}[]`);
  const size = { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 5, Math.max(schema.minItems ?? 0, 5)) };
  return schema.uniqueItems ? fc.uniqueArray(items, { ...size, selector: (value) => JSON.stringify(value) }) : fc.array(items, size);
}

function object(schema: Schema, context: GenerationContext, path: string): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const prefix = path === '' ? '' : `${path}.`;
  const fields = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, generate(property, context, `${prefix}${name}`)]));
  const names = Object.keys(fields);
  if (names.length === 0 && typeof schema.additionalProperties === 'object') {
    const keys = schema.propertyNames ? text({ type: 'string', ...schema.propertyNames }, context) : fc.string({ minLength: 1, maxLength: 10 });
    return fc.dictionary(keys, generate(schema.additionalProperties, context, `${prefix}*`), {
      minKeys: schema.minProperties ?? 0,
      maxKeys: Math.min(schema.maxProperties ?? 5, 5),
    });
  }
  // a body with several ways to be complete (`anyOf: [{required: [a]}, {required: [b]}]`) takes one of them
  const ways = (schema.anyOf ?? []).map((way) => way.required ?? []);
  const requiredSets = ways.length > 0 ? ways.map((way) => [...(schema.required ?? []), ...way]) : [schema.required ?? []];
  return fc.oneof(
    ...requiredSets.map((required) =>
      fc.record(fields, { requiredKeys: required.filter((name) => name in fields) }).filter((value) => Object.keys(value).length >= (schema.minProperties ?? 0)),
    ),
  );
}

const nullable = (schema: Schema): boolean => [schema.type].flat().includes('null') || (schema.anyOf ?? []).some((alternative) => alternative.type === 'null');

/** `anyOf` listing alternative values (a schema or null), not the ways an object may be complete. */
const isValueAlternatives = (anyOf: Schema[] | undefined): anyOf is Schema[] =>
  anyOf !== undefined && anyOf.every((alternative) => !(alternative.required && Object.keys(alternative).length === 1));

function inferredType(schema: Schema): string {
  if (schema.properties || schema.additionalProperties !== undefined) return 'object';
  if (schema.items) return 'array';
  return 'string';
}

function merge(...schemas: Schema[]): Schema {
  return Object.assign({}, ...schemas) as Schema;
}

function withoutKeys(schema: Schema, ...keys: Array<keyof Schema>): Schema {
  const copy = { ...schema };
  for (const key of keys) delete copy[key];
  return copy;
}

export interface Variant {
  /** What was changed, where: `delivery_window.days: duplicate item`. */
  why: string;
  value: unknown;
}

/**
 * `value` (valid by `schema`) changed in one place each, so as to break one
 * rule of the schema there: a type, null, a bound, a pattern, an enum, a
 * required or unknown field, an item count. The caller keeps those its
 * validator finds invalid (some changes can happen to still be valid).
 */
export function invalidVariants(schema: Schema, value: unknown, path = ''): Variant[] {
  if (schema.allOf) return invalidVariants(merge(withoutKeys(schema, 'allOf'), ...schema.allOf), value, path);
  const alternatives = schema.oneOf ?? (isValueAlternatives(schema.anyOf) ? schema.anyOf : undefined);
  const here = path === '' ? 'body' : path;
  const variants: Variant[] = [];
  const add = (why: string, changed: unknown) => variants.push({ why: `${here}: ${why}`, value: changed });
  if (!nullable(schema)) add('null', null);
  if (alternatives) {
    const matching = alternatives.find((alternative) => typeMatches(alternative.type, value));
    if (matching) variants.push(...invalidVariants(merge(withoutKeys(schema, 'oneOf', 'anyOf'), matching), value, path).filter((variant) => !variant.why.endsWith(': null')));
    return variants;
  }
  if (schema.enum) add('not one of the enum', '~not-listed~');
  if (typeof value === 'string') {
    add('a number instead of a string', 12345);
    if (schema.minLength !== undefined && schema.minLength > 0) add('too short', '');
    if (schema.maxLength !== undefined) add('too long', value.padEnd(schema.maxLength + 1, 'x'));
    if (schema.pattern !== undefined || schema.format !== undefined) add('not matching its pattern or format', '\u0001~');
  } else if (typeof value === 'number') {
    add('a string instead of a number', String(value));
    if (schema.minimum !== undefined) add('below its minimum', schema.minimum - 1);
    if (schema.maximum !== undefined) add('above its maximum', schema.maximum + 1);
    if (schema.multipleOf !== undefined) add('not a multiple', value + schema.multipleOf / 3);
    if ([schema.type].flat().includes('integer')) add('not an integer', value + 0.5);
  } else if (typeof value === 'boolean') {
    add('a string instead of a boolean', String(value));
  } else if (Array.isArray(value)) {
    add('an object instead of a list', { list: value });
    if (schema.minItems !== undefined && schema.minItems > 0) add('too few items', []);
    if (schema.maxItems !== undefined && value.length > 0) add('too many items', Array.from({ length: schema.maxItems + 1 }, (_, index) => value[index % value.length]));
    if (schema.uniqueItems && value.length > 0) add('a duplicate item', [...value, value[0]]);
    if (schema.items && value.length > 0) {
      for (const variant of invalidVariants(schema.items, value[0], `${path}[0]`)) variants.push({ ...variant, value: [variant.value, ...value.slice(1)] });
    }
  } else if (value !== null && typeof value === 'object') {
    const fields = value as Record<string, unknown>;
    add('a list instead of an object', [fields]);
    if (schema.additionalProperties === false) add('an unknown field', { ...fields, zz_unknown: 1 });
    for (const name of schema.required ?? []) if (name in fields) add(`without ${name}`, withoutField(fields, name));
    for (const way of schema.anyOf ?? []) {
      if (way.required?.every((name) => name in fields)) add('none of the alternatives', withoutFields(fields, (schema.anyOf ?? []).flatMap((other) => other.required ?? [])));
    }
    if (schema.maxProperties !== undefined) add('too many properties', { ...fields, ...Object.fromEntries(Array.from({ length: schema.maxProperties + 1 }, (_, index) => [`k${index}`, 'v'])) });
    if (schema.propertyNames?.pattern !== undefined) add('a property name not matching its pattern', { ...fields, 'Not A Key!': 'v' });
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (!(name in fields)) continue;
      const at = path === '' ? name : `${path}.${name}`;
      for (const variant of invalidVariants(property, fields[name], at)) variants.push({ ...variant, value: { ...fields, [name]: variant.value } });
    }
  }
  return variants;
}

function typeMatches(type: Schema['type'], value: unknown): boolean {
  const types = [type].flat();
  if (value === null) return types.includes('null');
  if (Array.isArray(value)) return types.includes('array');
  return types.includes(typeof value === 'object' ? 'object' : typeof value) || (typeof value === 'number' && types.includes('integer'));
}

const withoutField = (fields: Record<string, unknown>, name: string) => withoutFields(fields, [name]);

function withoutFields(fields: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => !names.includes(name)));
}
