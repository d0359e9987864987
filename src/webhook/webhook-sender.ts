import type { LookupAddress, LookupOptions } from 'node:dns';
import { Agent, request } from 'undici';
import { BlockedUrl, type UrlGuard, type VettedUrl } from './url-guard.js';

/** What one attempt gives, recorded as it is in `webhook_attempt` and `webhook_response`. */
export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  error: AttemptError | null;
  /** The first 256 printable bytes of the answer. */
  body: string;
  /** `Retry-After` of a 429 or 503, in milliseconds. */
  retryAfterMs: number | null;
}

export type AttemptError = 'timeout' | 'connexion_refusee' | 'adresse_bloquee';

export interface Delivery {
  url: string;
  body: string;
  headers: Record<string, string>;
}

const CONNECT_TIMEOUT_MS = 5_000;
const BODY_EXCERPT_BYTES = 256;
const MAX_AGENTS = 256;

/**
 * POSTs one event, through the SSRF guard: the name is vetted before every
 * attempt and the connection goes to the vetted address (the agent's lookup
 * returns it, so there is no second resolution to rebind); TLS still checks the
 * certificate against the name. No redirect is followed: a 3xx is a failure.
 */
export class WebhookSender {
  /** One agent per vetted (origin, address), so that connections are reused while the name keeps its address. */
  private readonly agents = new Map<string, Agent>();

  constructor(
    private readonly guard: UrlGuard,
    private readonly timeoutMs: number,
  ) {}

  async post(delivery: Delivery): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let vetted: VettedUrl;
    try {
      vetted = await this.guard.vet(delivery.url);
    } catch (error) {
      if (!(error instanceof BlockedUrl)) throw error;
      return { statusCode: null, durationMs: elapsed(), error: 'adresse_bloquee', body: error.reason, retryAfterMs: null };
    }
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await request(vetted.url, {
        method: 'POST',
        body: delivery.body,
        headers: delivery.headers,
        dispatcher: this.agentFor(vetted),
        signal,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      const body = await excerpt(response.body);
      const retryAfter = response.statusCode === 429 || response.statusCode === 503 ? response.headers['retry-after'] : undefined;
      return {
        statusCode: response.statusCode,
        durationMs: elapsed(),
        error: null,
        body,
        retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, Date.now()),
      };
    } catch (error) {
      const timedOut = signal.aborted || (error instanceof Error && /timeout/i.test(`${error.name} ${(error as { code?: string }).code ?? ''}`));
      return { statusCode: null, durationMs: elapsed(), error: timedOut ? 'timeout' : 'connexion_refusee', body: '', retryAfterMs: null };
    }
  }

  async close(): Promise<void> {
    const agents = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(agents.map((agent) => agent.close()));
  }

  private agentFor({ url, address, family }: VettedUrl): Agent {
    const key = `${url.origin} ${address}`;
    let agent = this.agents.get(key);
    if (agent) return agent;
    if (this.agents.size >= MAX_AGENTS) {
      const [oldestKey, oldest] = this.agents.entries().next().value as [string, Agent];
      this.agents.delete(oldestKey);
      void oldest.close();
    }
    agent = new Agent({
      connect: { timeout: CONNECT_TIMEOUT_MS, lookup: pinnedLookup(address, family) },
      keepAliveTimeout: 10_000,
    });
    this.agents.set(key, agent);
    return agent;
  }
}

/** A `lookup` that answers the vetted address whatever it is asked, in the form Node's connect expects. */
function pinnedLookup(address: string, family: 4 | 6) {
  return (
    _hostname: string,
    options: LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

async function excerpt(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    length += chunk.length;
    if (length >= BODY_EXCERPT_BYTES) {
      body.destroy();
      break;
    }
  }
  return printable(Buffer.concat(chunks).subarray(0, BODY_EXCERPT_BYTES));
}

/** The answer's bytes as text, control characters dropped. */
function printable(bytes: Buffer): string {
  return bytes.toString('utf8').replace(/[\u0000-\u001f\u007f\ufffd]/g, '');
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
