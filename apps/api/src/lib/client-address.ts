import ipaddr from 'ipaddr.js';

/**
 * The address an attempt is counted on: IPv4 as is, IPv6 by its /64 (the block one subscriber usually holds, so a
 * client cannot take a fresh counter per address), IPv4-mapped IPv6 as the IPv4.
 */
export function clientKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    if (!v6.isIPv4MappedAddress()) return `${v6.toNormalizedString().split(':').slice(0, 4).join(':')}::/64`;
    addr = v6.toIPv4Address();
  }
  return addr.toString();
}
