import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** A name's addresses, as `dns.lookup(name, { all: true })` gives them. */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const WEBHOOK_RESOLVER = Symbol('WEBHOOK_RESOLVER');

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** Why a URL is refused; `reason` is the French text of the field error. */
export class BlockedUrl extends Error {
  override readonly name = 'BlockedUrl';
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Where an attempt connects: the URL as given, and the address its name was vetted to. */
export interface VettedUrl {
  url: URL;
  address: string;
  family: 4 | 6;
}

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * The SSRF guard of webhook URLs, applied when a URL is saved and again before
 * every attempt (DNS answers change): only http(s), no credentials, and a name
 * whose every address is public unicast. The WHATWG parser normalises the odd
 * IPv4 forms (`0x7f.1`, `2130706433`, `017700000001`) to dotted quads first,
 * and ipaddr.js classifies the address: loopback, RFC 1918, link-local
 * (169.254, the cloud metadata address), CGNAT, ULA, multicast, unspecified,
 * IPv4-mapped and every other special range are refused. The attempt then
 * connects to the vetted address itself (see WebhookSender), so that a second
 * resolution cannot rebind the name to a private address.
 */
export class UrlGuard {
  constructor(
    private readonly resolve: Resolver,
    private readonly allowPrivate: boolean,
  ) {}

  /** Checks the URL's form only (no DNS): what a request body may hold. */
  parse(raw: string): URL {
    if (raw.length > MAX_WEBHOOK_URL_LENGTH) throw new BlockedUrl(`ne doit pas dépasser ${MAX_WEBHOOK_URL_LENGTH} caractères`);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new BlockedUrl('URL invalide');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedUrl('doit être une URL http ou https');
    if (url.username !== '' || url.password !== '') throw new BlockedUrl("ne doit pas contenir d'identifiants");
    if (url.hostname === '') throw new BlockedUrl('URL invalide');
    return url;
  }

  /** Resolves the URL's name and vets its addresses; the first one is where to connect. */
  async vet(raw: string): Promise<VettedUrl> {
    const url = this.parse(raw);
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    let addresses: Array<{ address: string; family: number }>;
    if (isIP(host) !== 0) {
      addresses = [{ address: host, family: isIP(host) }];
    } else {
      try {
        addresses = await this.resolve(host);
      } catch {
        throw new BlockedUrl('nom de domaine introuvable');
      }
      if (addresses.length === 0) throw new BlockedUrl('nom de domaine introuvable');
    }
    if (!this.allowPrivate) {
      for (const { address } of addresses) {
        if (!isPublic(address)) throw new BlockedUrl('adresse privée ou réservée refusée');
      }
    }
    const [first] = addresses;
    return { url, address: first!.address, family: first!.family === 6 ? 6 : 4 };
  }
}

/** Public unicast only: ipaddr.js names every special range, and IPv4-mapped IPv6 is judged as the IPv4 it maps. */
export function isPublic(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return false;
  return parsed.range() === 'unicast';
}

export const URL_GUARD = Symbol('URL_GUARD');
