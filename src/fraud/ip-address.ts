import ipaddr from 'ipaddr.js';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;
export type IpRange = [IpAddress, number];

/** Dotted-quad IPv4 (no legacy short or octal forms) or IPv6. */
const isAddress = (text: string): boolean => ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);

/** An IPv4 or IPv6 address in its canonical text (IPv4-mapped IPv6 as the IPv4 it maps), so that one address is one value; null when it is none. */
export function canonicalIp(text: string): string | null {
  return isAddress(text) ? ipaddr.process(text).toString() : null;
}

/** An address, or a CIDR range (`203.0.113.0/24`, `2001:db8::/32`) as its network address and length; null when it is neither. */
export function canonicalIpOrRange(text: string): string | null {
  const slash = text.indexOf('/');
  if (slash < 0) return canonicalIp(text);
  if (!isAddress(text.slice(0, slash)) || !ipaddr.isValidCIDR(text)) return null;
  const [address, bits] = ipaddr.parseCIDR(text);
  const network = address.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(text) : ipaddr.IPv6.networkAddressFromCIDR(text);
  return `${network.toString()}/${bits}`;
}

export const isRange = (canonical: string): boolean => canonical.includes('/');

export const parseIp = (canonical: string): IpAddress => ipaddr.parse(canonical);

export const parseRange = (canonical: string): IpRange => ipaddr.parseCIDR(canonical);

export const inRange = (address: IpAddress, [network, bits]: IpRange): boolean => address.kind() === network.kind() && address.match(network, bits);
