import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { backoffMs } from '../jobs/backoff.js';
import { HlrLookupFailed, REACHABILITIES, type HlrAnswer, type HlrProvider, type Reachability } from './hlr-provider.js';

export interface VonageHlrOptions {
  /** The Number Insight Advanced synchronous endpoint, `https://api.nexmo.com/ni/advanced/json`. */
  url: string;
  apiKey: string;
  apiSecret: string;
  timeoutMs: number;
  retries: number;
}

interface Carrier {
  network_code?: string | null;
  name?: string | null;
  country?: string | null;
}

/** The fields of a Number Insight Advanced answer that a lookup keeps. */
interface AdvancedAnswer {
  status?: number;
  status_message?: string;
  request_id?: string;
  country_code?: string | null;
  current_carrier?: Carrier | null;
  original_carrier?: Carrier | null;
  ported?: string | null;
  roaming?: { status?: string; roaming_country_code?: string; roaming_network_code?: string } | string | null;
  valid_number?: string | null;
  reachable?: string | null;
}

/** Vonage `status` codes worth asking again: throttled, internal error. Others (bad request, credentials, quota, not handled) are final. */
const TRANSIENT_STATUSES = new Set([1, 5]);
const RETRY_BASE_MS = 250;
const RETRY_MAX_MS = 2_000;

class Transient extends Error {}

/**
 * Vonage Number Insight Advanced, synchronous (GET with Basic credentials,
 * https://developer.vonage.com/en/api/number-insight). Each call is bounded by
 * `timeoutMs`; timeouts, network errors, HTTP 429/5xx and Vonage's transient
 * statuses are tried again `retries` times with backoff. A final refusal or
 * the last failure is HlrLookupFailed.
 */
export class VonageHlrProvider implements HlrProvider {
  readonly name = 'vonage';
  private readonly authorization: string;

  constructor(private readonly options: VonageHlrOptions) {
    this.authorization = `Basic ${Buffer.from(`${options.apiKey}:${options.apiSecret}`).toString('base64')}`;
  }

  async lookup(number: string): Promise<HlrAnswer> {
    for (let attempt = 0; ; attempt++) {
      try {
        return toAnswer(await this.call(number));
      } catch (error) {
        if (!(error instanceof Transient) || attempt >= this.options.retries) {
          throw error instanceof HlrLookupFailed ? error : new HlrLookupFailed((error as Error).message);
        }
        await sleep(backoffMs(attempt + 1, RETRY_BASE_MS, RETRY_MAX_MS));
      }
    }
  }

  private async call(number: string): Promise<AdvancedAnswer> {
    const url = new URL(this.options.url);
    url.searchParams.set('number', number.replace(/^\+/, ''));
    let status: number;
    let body: unknown;
    try {
      const response = await request(url, {
        method: 'GET',
        headers: { authorization: this.authorization, accept: 'application/json' },
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      status = response.statusCode;
      body = await response.body.json().catch(() => null);
    } catch (error) {
      const name = (error as Error).name;
      const timedOut = name === 'TimeoutError' || name === 'HeadersTimeoutError' || name === 'BodyTimeoutError' || name === 'AbortError';
      throw new Transient(timedOut ? 'fournisseur: délai de réponse dépassé' : 'fournisseur: injoignable');
    }
    if (status === 429 || status >= 500) throw new Transient(`fournisseur: HTTP ${status}`);
    const answer = (body ?? {}) as AdvancedAnswer;
    if (status !== 200 || typeof answer.status !== 'number') throw new HlrLookupFailed(`fournisseur: HTTP ${status}`);
    if (answer.status === 0) return answer;
    const refusal = `fournisseur: statut ${answer.status}${answer.status_message ? ` (${answer.status_message})` : ''}`;
    throw TRANSIENT_STATUSES.has(answer.status) ? new Transient(refusal) : new HlrLookupFailed(refusal);
  }
}

function toAnswer(answer: AdvancedAnswer): HlrAnswer {
  const roaming = typeof answer.roaming === 'object' && answer.roaming !== null ? answer.roaming : null;
  const roamingStatus = roaming?.status ?? (typeof answer.roaming === 'string' ? answer.roaming : null);
  const isRoaming = roamingStatus === 'roaming' ? true : roamingStatus === 'not_roaming' ? false : null;
  return {
    valid: answer.valid_number === 'valid' ? true : answer.valid_number === 'not_valid' ? false : null,
    reachable: REACHABILITIES.includes(answer.reachable as Reachability) ? (answer.reachable as Reachability) : 'unknown',
    ported: answer.ported?.endsWith('not_ported') ? false : answer.ported === 'ported' || answer.ported === 'assumed_ported' ? true : null,
    roaming: isRoaming,
    country: answer.country_code ?? null,
    mccmnc: answer.current_carrier?.network_code ?? null,
    networkName: answer.current_carrier?.name ?? null,
    originalMccmnc: answer.original_carrier?.network_code ?? null,
    originalNetworkName: answer.original_carrier?.name ?? null,
    roamingCountry: isRoaming ? (roaming?.roaming_country_code ?? null) : null,
    roamingMccmnc: isRoaming ? (roaming?.roaming_network_code ?? null) : null,
    providerId: answer.request_id ?? null,
    providerStatus: answer.status_message ?? String(answer.status),
  };
}
