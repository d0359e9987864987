import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { ROUTING_FILE_SCHEMA, type RoutingFile } from './routing-file.schema.js';

/** Which messages a route takes: OTPs, or every other SMS (sends, campaigns, replies). */
export type Traffic = 'otp' | 'bulk';
export type Strategy = 'failover' | 'round_robin' | 'least_cost';

export interface ConnectorSettings {
  /** Stored as `provider` on the message, its parts and its receipts. */
  id: string;
  /** `smpp://…`, `smpps://…`, or `log:` (each SMS written to the log). */
  url: string;
  /** Transceiver binds per instance. */
  binds: number;
  /** Submits awaiting their answer at once, per bind. */
  window: number;
  /** Submits per second on this instance; null for no limit but the SMSC's. */
  tps: number | null;
}

export interface TargetSettings {
  connector: string;
  /** What the operator pays the supplier per part; never shown to accounts. */
  cost: number | null;
  weight: number;
}

export interface RouteSettings {
  name: string;
  /** Empty: any destination. */
  prefixes: string[];
  mccmnc: string[];
  /** Empty: any account. */
  accounts: string[];
  traffic: Traffic | 'any';
  strategy: Strategy;
  targets: TargetSettings[];
}

export interface RoutingSettings {
  /** Where the table came from: the file, or the variables that stand for one. */
  source: string;
  connectors: ConnectorSettings[];
  routes: RouteSettings[];
  /** How long the rest of a long message waits for the connector that took its first parts. */
  partsWaitSeconds: number;
}

/** A routing file that cannot be used: each problem names its place (`routes[1].targets[0].connector (line 14)`). */
export class RoutingFileError extends Error {
  override readonly name = 'RoutingFileError';

  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`SMS_ROUTING_FILE ${file} is not valid:\n  ${problems.join('\n  ')}`);
  }
}

const DEFAULT_PARTS_WAIT_SECONDS = 600;
/** What each patterned field must look like, said in words rather than as its pattern. */
const PATTERNS: Record<string, string> = {
  id: 'must be 1 to 16 lower-case letters, digits or dashes',
  url: 'must be smpp://system_id:password@host:port, smpps://… (TLS) or log:',
  name: 'must be 1 to 64 letters, digits, dots, dashes or underscores',
  prefixes: 'must be + followed by 1 to 15 digits',
  mccmnc: 'must be 5 or 6 digits (MCC and MNC)',
  accounts: 'must be an account id or *',
};
const validate = new Ajv({ allErrors: true, strict: true }).compile<RoutingFile>(ROUTING_FILE_SCHEMA);

/** Reads and checks the file; `window` is the default of connectors that set none (SMPP_WINDOW). */
export function readRoutingFile(file: string, window: number): RoutingSettings {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new RoutingFileError(file, [`cannot be read: ${(error as Error).message}`]);
  }
  return parseRoutingFile(file, text, window);
}

/** YAML or JSON (JSON is YAML): the schema first, then what it cannot say (references, order, costs). */
export function parseRoutingFile(file: string, text: string, window: number): RoutingSettings {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  if (document.errors.length > 0) {
    throw new RoutingFileError(file, document.errors.map((error) => `line ${lines.linePos(error.pos[0]).line}: ${error.message.split('\n')[0]}`));
  }
  const content: unknown = document.toJS();
  const place = placeIn(document, lines);
  if (!validate(content)) throw new RoutingFileError(file, (validate.errors ?? []).map((error) => schemaProblem(error, place)));
  const settings = toSettings(file, content, window);
  const problems = crossProblems(settings, place);
  if (problems.length > 0) throw new RoutingFileError(file, problems);
  return settings;
}

/** One connector and a route that sends everything to it: `SMPP_URL` alone (`default`), or the log. */
export function singleConnector(source: string, connector: Omit<ConnectorSettings, 'binds' | 'tps'>): RoutingSettings {
  return {
    source,
    connectors: [{ ...connector, binds: 1, tps: null }],
    routes: [
      { name: 'default', prefixes: [], mccmnc: [], accounts: [], traffic: 'any', strategy: 'failover', targets: [{ connector: connector.id, cost: null, weight: 1 }] },
    ],
    partsWaitSeconds: DEFAULT_PARTS_WAIT_SECONDS,
  };
}

function toSettings(source: string, file: RoutingFile, window: number): RoutingSettings {
  return {
    source,
    connectors: file.connectors.map((connector) => ({
      id: connector.id,
      url: connector.url,
      binds: connector.binds ?? 1,
      window: connector.window ?? window,
      tps: connector.tps ?? null,
    })),
    routes: file.routes.map((route) => ({
      name: route.name,
      prefixes: route.match?.prefixes ?? [],
      mccmnc: route.match?.mccmnc ?? [],
      accounts: (route.match?.accounts ?? []).includes('*') ? [] : (route.match?.accounts ?? []).map((id) => id.toLowerCase()),
      traffic: route.match?.traffic ?? 'any',
      strategy: route.strategy ?? 'failover',
      targets: route.targets.map((target) => ({ connector: target.connector, cost: target.cost ?? null, weight: target.weight ?? 1 })),
    })),
    partsWaitSeconds: file.parts_wait_seconds ?? DEFAULT_PARTS_WAIT_SECONDS,
  };
}

/** What the schema cannot check: unique ids and names, known connectors, costs for least_cost, nothing below a catch-all. */
function crossProblems(settings: RoutingSettings, place: (path: Array<string | number>) => string): string[] {
  const problems: string[] = [];
  const connectors = new Set<string>();
  settings.connectors.forEach((connector, index) => {
    if (connectors.has(connector.id)) problems.push(`${place(['connectors', index, 'id'])}: connector "${connector.id}" is defined twice`);
    connectors.add(connector.id);
  });
  const names = new Set<string>();
  let catchAll: string | null = null;
  settings.routes.forEach((route, index) => {
    if (names.has(route.name)) problems.push(`${place(['routes', index, 'name'])}: route "${route.name}" is defined twice`);
    names.add(route.name);
    if (catchAll !== null) problems.push(`${place(['routes', index])}: route "${route.name}" comes after the catch-all route "${catchAll}" and would never match`);
    const used = new Set<string>();
    route.targets.forEach((target, at) => {
      if (!connectors.has(target.connector)) problems.push(`${place(['routes', index, 'targets', at, 'connector'])}: unknown connector "${target.connector}"`);
      if (used.has(target.connector)) problems.push(`${place(['routes', index, 'targets', at, 'connector'])}: connector "${target.connector}" is a target twice`);
      used.add(target.connector);
      if (route.strategy === 'least_cost' && target.cost === null) problems.push(`${place(['routes', index, 'targets', at])}: a least_cost target needs a cost`);
    });
    if (isCatchAll(route)) catchAll ??= route.name;
  });
  return problems;
}

const isCatchAll = (route: RouteSettings) =>
  route.prefixes.length === 0 && route.mccmnc.length === 0 && route.accounts.length === 0 && route.traffic === 'any';

function schemaProblem(error: ErrorObject, place: (path: Array<string | number>) => string): string {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((step) => (/^\d+$/.test(step) ? Number(step) : step.replaceAll('~1', '/').replaceAll('~0', '~')));
  const params = error.params as { additionalProperty?: string; missingProperty?: string; allowedValues?: unknown[] };
  if (params.additionalProperty) return `${place([...path, params.additionalProperty])}: unknown field`;
  if (params.missingProperty) return `${place(path)}: ${params.missingProperty} is required`;
  if (params.allowedValues) return `${place(path)}: must be one of ${params.allowedValues.join(', ')}`;
  const field = path.findLast((step): step is string => typeof step === 'string');
  if (error.keyword === 'pattern' && field && PATTERNS[field]) return `${place(path)}: ${PATTERNS[field]}`;
  return `${place(path)}: ${error.message}`;
}

/** `routes[1].targets[0]` and the line the YAML node starts on, for a path into the document. */
function placeIn(document: Document, lines: LineCounter) {
  return (path: Array<string | number>): string => {
    const shown = path.reduce<string>((text, step) => (typeof step === 'number' ? `${text}[${step}]` : text ? `${text}.${step}` : step), '') || '(file)';
    const node = (path.length === 0 ? document.contents : document.getIn(path, true)) as { range?: [number, number, number] } | undefined;
    const key = typeof path.at(-1) === 'string' ? keyNode(document, path) : undefined;
    const offset = key?.range?.[0] ?? node?.range?.[0];
    return offset === undefined ? shown : `${shown} (line ${lines.linePos(offset).line})`;
  };
}

/** The key node of the last step (present even when the field's value is not). */
function keyNode(document: Document, path: Array<string | number>): { range?: [number, number, number] } | undefined {
  const parent = (path.length === 1 ? document.contents : document.getIn(path.slice(0, -1), true)) as
    | { items?: Array<{ key?: { value?: unknown; range?: [number, number, number] } }> }
    | undefined;
  return parent?.items?.find((pair) => pair.key?.value === path.at(-1))?.key;
}
