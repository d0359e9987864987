import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What one call asked: the number (digits, no `+`) and whether its Basic credentials were right. */
export interface InsightCall {
  number: string;
  authorized: boolean;
  at: number;
}

/** How the vendor answers a number on the `count`-th call for it. */
export type InsightScript = (call: InsightCall, response: ServerResponse, count: number) => void;

/** A Number Insight Advanced answer in Vonage's documented shape, for a valid, reachable Ivorian Orange number unless told otherwise. */
export function advancedAnswer(number: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    status: 0,
    status_message: 'Success',
    request_id: `aaaaaaaa-bbbb-cccc-dddd-${number.slice(-12).padStart(12, '0')}`,
    international_format_number: number,
    national_format_number: number.slice(3),
    country_code: 'CI',
    country_code_iso3: 'CIV',
    country_name: "Cote d'Ivoire",
    country_prefix: '225',
    request_price: '0.03000000',
    remaining_balance: '10.000000',
    current_carrier: { network_code: '61203', name: "Orange Cote d'Ivoire", country: 'CI', network_type: 'mobile' },
    original_carrier: { network_code: '61203', name: "Orange Cote d'Ivoire", country: 'CI', network_type: 'mobile' },
    ported: 'not_ported',
    roaming: { status: 'not_roaming' },
    lookup_outcome: 0,
    lookup_outcome_message: 'Success',
    valid_number: 'valid',
    reachable: 'reachable',
    ...fields,
  };
}

export function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * A local server speaking Vonage Number Insight Advanced (synchronous):
 * `GET /ni/advanced/json?number=…` with Basic credentials, answered by the
 * script of the number, else a success.
 */
export class FakeNumberInsight {
  readonly calls: InsightCall[] = [];
  private readonly scripts = new Map<string, InsightScript>();
  private server!: Server;

  constructor(private readonly credentials: { key: string; secret: string }) {}

  async start(): Promise<this> {
    this.server = createServer((request, response) => this.answer(request, response));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/ni/advanced/json`;
  }

  on(number: string, script: InsightScript): void {
    this.scripts.set(number.replace(/^\+/, ''), script);
  }

  callsFor(number: string): InsightCall[] {
    return this.calls.filter((call) => call.number === number.replace(/^\+/, ''));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const expected = `Basic ${Buffer.from(`${this.credentials.key}:${this.credentials.secret}`).toString('base64')}`;
    const call = { number: url.searchParams.get('number') ?? '', authorized: request.headers.authorization === expected, at: Date.now() };
    this.calls.push(call);
    if (url.pathname !== '/ni/advanced/json') return json(response, 404, { status: 3, status_message: 'Invalid path' });
    if (!call.authorized) return json(response, 401, { status: 4, status_message: 'Invalid credentials' });
    const count = this.callsFor(call.number).length;
    const script = this.scripts.get(call.number);
    if (script) script(call, response, count);
    else json(response, 200, advancedAnswer(`+${call.number}`));
  }
}
