export interface SmppEndpoint {
  host: string;
  port: number;
  tls: boolean;
  systemId: string;
  password: string;
}

/** `smpp://system_id:password@host:port` (or `smpps://` for TLS). */
export function parseSmppUrl(url: string): SmppEndpoint {
  const parsed = new URL(url);
  const tls = parsed.protocol === 'smpps:';
  return {
    host: parsed.hostname,
    port: Number(parsed.port || (tls ? 3550 : 2775)),
    tls,
    systemId: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
  };
}
