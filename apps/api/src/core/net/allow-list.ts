import ipaddr from 'ipaddr.js';

/**
 * The operator's outbound allow-list (OUTBOUND_ALLOW_LIST): the intranet hosts and address ranges the server may
 * fetch from on a client's behalf although they are not public (URL conversion and the pages' own requests,
 * Gotenberg's downloadFrom, webhooks, time-stamp authorities). Everything else keeps the public-only rule.
 */
export interface AllowList {
  /** An exact host name, or one under a `*.` suffix entry. IP literals are judged by `allowsAddress`. */
  allowsHost(host: string): boolean;
  /** An address inside one of the listed ranges or equal to a listed address. */
  allowsAddress(ip: string): boolean;
  readonly empty: boolean;
}

export const emptyAllowList: AllowList = { allowsHost: () => false, allowsAddress: () => false, empty: true };

const HOST = /^(?=.{1,253}$)[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?(?:\.[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?)*$/;

/**
 * Entries separated by commas or spaces: `intranet.example` (that host), `*.corp.example` (any host under it, not
 * the bare name), `10.20.0.0/16` or `fd00::/8` (a range), `10.1.2.3` (one address). A wrong entry is a
 * configuration error, never silently ignored: an operator who meant to open one range must not open none, or more.
 */
export function parseAllowList(raw: string): AllowList {
  const entries = raw
    .split(/[\s,]+/)
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  if (entries.length === 0) return emptyAllowList;
  const hosts = new Set<string>();
  const suffixes: string[] = [];
  const ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
  const bad: string[] = [];
  for (const entry of entries) {
    if (entry.includes('/')) {
      try {
        ranges.push(ipaddr.parseCIDR(entry));
      } catch {
        bad.push(entry);
      }
    } else if (ipaddr.isValid(entry)) {
      const addr = ipaddr.parse(entry);
      ranges.push([addr, addr.kind() === 'ipv4' ? 32 : 128]);
    } else if (entry.startsWith('*.') && HOST.test(entry.slice(2))) suffixes.push(entry.slice(1));
    else if (HOST.test(entry)) hosts.add(entry);
    else bad.push(entry);
  }
  if (bad.length)
    throw new Error(
      `not a host name, *.suffix, address or CIDR range: ${bad.join(', ')} (e.g. "intranet.example, *.corp.example, 10.20.0.0/16")`,
    );
  const normalize = (ip: string) => {
    const addr = ipaddr.parse(ip.startsWith('[') ? ip.slice(1, -1) : ip);
    // An IPv4-mapped IPv6 address is the IPv4 address a socket reaches.
    return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()
      ? (addr as ipaddr.IPv6).toIPv4Address()
      : addr;
  };
  return {
    empty: false,
    allowsHost(host) {
      const h = host.toLowerCase().replace(/\.$/, '');
      return hosts.has(h) || suffixes.some((s) => h.endsWith(s));
    },
    allowsAddress(ip) {
      if (!ipaddr.isValid(ip.replace(/^\[|\]$/g, ''))) return false;
      const addr = normalize(ip);
      return ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
    },
  };
}
