import type { Type } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';

/** What the OpenAPI document says of one property of a DTO. */
export interface DeclaredProperty {
  required: boolean;
  nullable: boolean;
  /** The DTO of an object property, or of each item of a list. */
  nested?: { type: Type<unknown>; each: boolean };
}

type PropertyMetadata = { required?: unknown; nullable?: unknown; type?: unknown; isArray?: unknown };

/** The static method through which the `@nestjs/swagger` compiler plugin hands over what it read from the TypeScript types. */
const PLUGIN_FACTORY = '_OPENAPI_METADATA_FACTORY';

const declared = new WeakMap<Type<unknown>, ReadonlyMap<string, DeclaredProperty>>();

/**
 * A DTO's properties as the OpenAPI document states them: `@ApiProperty`
 * over what the compiler plugin read from the types (`?` and `| null`),
 * merged as `@nestjs/swagger` merges them to write the document. The
 * validation pipe refuses what these do not allow, so that the document and
 * the service cannot disagree on which fields exist and which take null.
 */
export function declaredProperties(type: Type<unknown>): ReadonlyMap<string, DeclaredProperty> {
  let properties = declared.get(type);
  if (!properties) declared.set(type, (properties = readProperties(type)));
  return properties;
}

export const isDto = (type: unknown): type is Type<unknown> =>
  typeof type === 'function' && (Reflect.hasMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, type.prototype as object) || PLUGIN_FACTORY in type);

function readProperties(type: Type<unknown>): Map<string, DeclaredProperty> {
  const prototype = type.prototype as object;
  const fromPlugin = pluginMetadata(type);
  const decorated = ((Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, prototype) ?? []) as string[])
    .filter((key) => key.startsWith(':'))
    .map((key) => key.slice(1));
  const properties = new Map<string, DeclaredProperty>();
  for (const name of new Set([...Object.keys(fromPlugin), ...decorated])) {
    const metadata: PropertyMetadata = {
      ...fromPlugin[name],
      ...((Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, prototype, name) ?? {}) as PropertyMetadata),
    };
    properties.set(name, { required: metadata.required !== false, nullable: metadata.nullable === true, nested: nestedDto(metadata) });
  }
  return properties;
}

/** The plugin's metadata of a class and its ancestors, the nearest class winning. */
function pluginMetadata(type: Type<unknown>): Record<string, PropertyMetadata> {
  const chain: Array<Record<string, PropertyMetadata>> = [];
  for (let current: unknown = type; typeof current === 'function' && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    if (Object.hasOwn(current, PLUGIN_FACTORY)) chain.unshift((current as unknown as Record<string, () => Record<string, PropertyMetadata>>)[PLUGIN_FACTORY]());
  }
  const merged: Record<string, PropertyMetadata> = {};
  for (const metadata of chain) for (const [name, property] of Object.entries(metadata)) merged[name] = { ...merged[name], ...property };
  return merged;
}

function nestedDto(metadata: PropertyMetadata): DeclaredProperty['nested'] {
  // the plugin writes a type as `() => X` (or `() => [X]`), so that classes may refer to each other
  let type = typeof metadata.type === 'function' && !('prototype' in metadata.type) ? (metadata.type as () => unknown)() : metadata.type;
  let each = metadata.isArray === true;
  if (Array.isArray(type)) [type, each] = [type[0], true];
  return isDto(type) ? { type, each } : undefined;
}
