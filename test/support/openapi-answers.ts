import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import type { OpenAPIObject, OperationObject, ResponseObject } from '@nestjs/swagger';
import type request from 'supertest';

// ajv-formats is CommonJS, whose `exports.default` arrives as a property of the default import
const addFormats = formats.default;

/**
 * Paths the API document does not describe, on purpose: the document itself
 * and Swagger UI's assets, and Prometheus text for the scraper.
 */
const OUTSIDE_DOCUMENT = [/^\/docs(?:[-/]|$)/, /^\/metrics$/];

/**
 * Answers given before any operation is reached, whatever the path: a path no
 * route serves (or that cannot be decoded), a method the path is not served
 * with (405, with the allowed ones in `errors`), and a request Node's HTTP
 * parser refuses (headers over the limit, too slow).
 */
const BEFORE_ROUTING: Record<number, string> = { 404: 'Non trouvé', 408: 'delai_depasse', 431: 'requete_trop_volumineuse' };

/** Answers to a method a path is not served with: 405 once authenticated, else the guard's 401. */
const OTHER_METHOD: Record<number, string> = { 401: 'Non autorisé', 405: 'methode_non_autorisee' };

/** An answer the OpenAPI document does not describe: a failure of the test, never a mere network error. */
export class UndocumentedAnswer extends Error {}

export interface Answer {
  method: string;
  url: string;
  status: number;
  contentType: string | undefined;
  body: unknown;
}

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  operation: OperationObject;
}

/**
 * Checks answers against the OpenAPI document the service publishes: the
 * path and method must be an operation of it, the status one of its
 * responses, and a JSON body must satisfy that response's schema.
 */
export class OpenApiAnswers {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, multipleOfPrecision: 6 });
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenAPIObject) {
    addFormats(this.ajv);
    this.ajv.addSchema({ components: document.components ?? {} }, 'api');
    this.routes = Object.entries(document.paths)
      .flatMap(([template, item]) =>
        Object.entries(item)
          .filter(([method]) => HTTP_METHODS.has(method))
          .map(([method, operation]) => ({ method, template, pattern: templatePattern(template), operation: operation as OperationObject })),
      )
      // a literal segment wins over a parameter: /contact/import before /contact/{id}
      .sort((a, b) => parameterCount(a.template) - parameterCount(b.template));
  }

  /** Why `answer` is not one the document describes, or undefined when it is. */
  problem(answer: Answer): string | undefined {
    const path = answer.url.replace(/^https?:\/\/[^/]+/, '').split('?')[0];
    if (OUTSIDE_DOCUMENT.some((pattern) => pattern.test(path))) return undefined;
    const method = answer.method.toLowerCase() === 'head' ? 'get' : answer.method.toLowerCase();
    const route = decodable(path) ? this.routes.find((candidate) => candidate.method === method && candidate.pattern.test(path)) : undefined;
    if (!route || answer.status === 408 || answer.status === 431) {
      const servedOtherwise = decodable(path) && this.routes.some((candidate) => candidate.pattern.test(path));
      const message = (servedOtherwise ? OTHER_METHOD[answer.status] : undefined) ?? BEFORE_ROUTING[answer.status];
      if (!message) return `${method.toUpperCase()} ${path} is not an operation of the document (answered ${answer.status})`;
      return this.schemaProblem(`before routing ${answer.status}`, routerEnvelope(answer.status, message), answer.body);
    }

    const responses = route.operation.responses as Record<string, ResponseObject>;
    const response = responses[String(answer.status)] ?? responses.default;
    const where = `${method.toUpperCase()} ${route.template} → ${answer.status}`;
    if (!response) return `${where} is not documented (documented: ${Object.keys(responses).join(', ')})`;
    if (answer.method.toLowerCase() === 'head' || !response.content) return undefined;

    const mediaType = answer.contentType?.split(';')[0].trim() ?? '';
    const content = response.content[mediaType];
    if (!content) return `${where}: ${mediaType || 'no content type'} is not documented (documented: ${Object.keys(response.content).join(', ')})`;
    if (!content.schema || mediaType !== 'application/json') return undefined;
    return this.schemaProblem(`${route.method} ${route.template} ${answer.status}`, content.schema, answer.body, where);
  }

  private schemaProblem(key: string, schema: object, body: unknown, where = key): string | undefined {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(pointingIntoDocument(schema));
      this.validators.set(key, validate);
    }
    if (validate(body)) return undefined;
    const errors = (validate.errors ?? []).map((error) => `  ${error.instancePath || '(body)'} ${error.message}`).join('\n');
    return `${where}: the body does not match the document\n${errors}\nbody: ${JSON.stringify(body).slice(0, 600)}`;
  }
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const routerEnvelope = (status: number, message: string) => ({
  type: 'object',
  required: status === 405 ? ['status', 'message', 'errors'] : ['status', 'message'],
  properties: { status: { const: status }, message: { const: message }, errors: { type: 'array', items: { type: 'string' } } },
  additionalProperties: false,
});

/** False for a path the router cannot decode, which no route serves. */
function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

const parameterCount = (template: string) => (template.match(/\{/g) ?? []).length;

function templatePattern(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

/** The schema, its `#/components/…` references pointing into the document added as `api`. */
function pointingIntoDocument(schema: object): object {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"api#/components/')) as object;
}

const CHECKED_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

/** `client`, each of whose requests also asserts that its answer is one `answers` describes. */
export function checkedAgainst(answers: OpenApiAnswers, client: ReturnType<typeof request>): ReturnType<typeof request> {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !CHECKED_METHODS.has(property) || typeof value !== 'function') return value;
      return (url: string, ...rest: unknown[]) =>
        (value as (url: string, ...rest: unknown[]) => request.Test).call(target, url, ...rest).expect((res: request.Response) => {
          const problem = answers.problem({ method: property, url, status: res.status, contentType: res.headers['content-type'], body: res.body });
          if (problem) throw new UndocumentedAnswer(problem);
        });
    },
  });
}

let servedDocument: Promise<OpenApiAnswers> | undefined;

/**
 * `fetch` for a server the test started as a process, asserting that the answer
 * is one the document describes; the document is the one the first server
 * called serves (every server a test starts runs the same build).
 */
export async function checkedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const { origin, pathname, search } = new URL(url);
  servedDocument ??= fetch(`${origin}/docs-json`).then(async (response) => new OpenApiAnswers((await response.json()) as OpenAPIObject));
  const answers = await servedDocument;
  const response = await fetch(url, init);
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? undefined;
  const body: unknown = contentType?.startsWith('application/json') ? JSON.parse(text) : text;
  const problem = answers.problem({ method: init.method ?? 'GET', url: pathname + search, status: response.status, contentType, body });
  if (problem) throw new UndocumentedAnswer(problem);
  return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
}
