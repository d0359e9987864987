/** What `SMS_ROUTING_FILE` may hold (JSON Schema, draft 2020-12 subset that Ajv checks). */
export const ROUTING_FILE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['connectors', 'routes'],
  properties: {
    connectors: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'url'],
        properties: {
          id: { type: 'string', pattern: '^[a-z0-9-]{1,16}$' },
          url: { type: 'string', pattern: '^(smpps?://[^:@/\\s]+:[^@/\\s]*@[^:/\\s]+(:\\d+)?/?|log:)$' },
          binds: { type: 'integer', minimum: 1, maximum: 32 },
          window: { type: 'integer', minimum: 1, maximum: 1000 },
          tps: { type: 'number', exclusiveMinimum: 0, maximum: 100000 },
        },
      },
    },
    routes: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'targets'],
        properties: {
          name: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$' },
          match: {
            type: 'object',
            additionalProperties: false,
            properties: {
              prefixes: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^\\+\\d{1,15}$' } },
              mccmnc: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^\\d{5,6}$' } },
              accounts: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^(\\*|[0-9a-fA-F-]{36})$' } },
              traffic: { enum: ['otp', 'bulk', 'any'] },
            },
          },
          strategy: { enum: ['failover', 'round_robin', 'least_cost'] },
          targets: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['connector'],
              properties: {
                connector: { type: 'string' },
                cost: { type: 'number', minimum: 0 },
                weight: { type: 'integer', minimum: 1, maximum: 1000 },
              },
            },
          },
        },
      },
    },
    parts_wait_seconds: { type: 'integer', minimum: 0, maximum: 172800 },
  },
} as const;

/** A file as the schema admits it, before its cross-references are checked. */
export interface RoutingFile {
  connectors: Array<{ id: string; url: string; binds?: number; window?: number; tps?: number }>;
  routes: Array<{
    name: string;
    match?: { prefixes?: string[]; mccmnc?: string[]; accounts?: string[]; traffic?: 'otp' | 'bulk' | 'any' };
    strategy?: 'failover' | 'round_robin' | 'least_cost';
    targets: Array<{ connector: string; cost?: number; weight?: number }>;
  }>;
  parts_wait_seconds?: number;
}
