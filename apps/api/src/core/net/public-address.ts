import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { EngineError } from '../errors';
import type { AllowList } from './allow-list';

/**
 * The outbound address policy of the server (url-to-pdf, and anything else that fetches on a client's behalf): only
 * globally routable unicast addresses. Pure apart from the injectable DNS lookup, so it is unit-tested without a
 * network.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
export type LookupFn = (hostname: string) => Promise<ResolvedAddress[]>;

/** getaddrinfo, as the connection itself would resolve (it honours /etc/hosts), every A and AAAA record. */
export const systemLookup: LookupFn = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Whether `ip` is an address a public fetch may connect to. Anything ipaddr.js puts in a special range is refused:
 * private, loopback, link-local (cloud metadata 169.254.169.254 among them), unique-local, CGNAT, multicast,
 * broadcast, unspecified, documentation, benchmarking, reserved; IPv6 is held to 2000::/3, and the IPv6 forms that
 * embed an IPv4 address (mapped, NAT64, 6to4, Teredo) are refused rather than unwrapped, except IPv4-mapped, which is
 * judged by the IPv4 address it carries (the kernel connects to that one).
 */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  // A zone index (fe80::1%eth0) only ever qualifies link-local addresses.
  if (bare.includes('%')) return false;
  if (!ipaddr.isValid(bare)) return false;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(bare);
  } catch {
    return false;
  }
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return isPublicAddress(v6.toIPv4Address().toString());
    return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
  }
  // ipaddr.isValid accepts legacy forms ("127.1", "0x7f.1"): only the four-part dotted decimal is an address here,
  // so that what is checked is what a socket would use.
  if (!ipaddr.IPv4.isValidFourPartDecimal(bare)) return false;
  return addr.range() === 'unicast';
}

export interface CheckUrlOptions {
  allowPrivate: boolean;
  lookup?: LookupFn;
  /** Hosts exempt from the address rule (tests); the scheme rules still apply. */
  allowHost?: (hostname: string) => boolean;
  /** The operator's intranet hosts and ranges (OUTBOUND_ALLOW_LIST, core/net/allow-list.ts). */
  allowList?: AllowList;
  /** Schemes accepted (default http and https; ws and wss for WebSocket checks). */
  schemes?: readonly string[];
}

/** The operator's outbound rules, read once from the configuration (config.outbound) and passed to every fetch. */
export type OutboundRules = Pick<CheckUrlOptions, 'allowPrivate' | 'allowList'>;

export interface CheckedUrl {
  url: URL;
  /** The hostname without IPv6 brackets. */
  host: string;
  port: number;
  /** Every address the name resolved to, all of them allowed: connect to one of these, never resolve again. */
  addresses: ResolvedAddress[];
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };

/** Parse and vet a URL's form (no DNS): scheme, credentials, host. */
export function parseTargetUrl(raw: string, schemes: readonly string[] = ['http:', 'https:']): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new EngineError('INVALID_INPUT', 'url: not a valid absolute URL (e.g. https://example.com/page)', {
      details: { field: 'url' },
    });
  }
  if (!schemes.includes(url.protocol)) {
    throw new EngineError(
      'URL_NOT_ALLOWED',
      `url: the scheme "${url.protocol.replace(/:$/, '')}" is not allowed (valid: ${schemes.map((s) => s.replace(/:$/, '')).join(', ')})`,
      {
        details: { field: 'url', valid: schemes.map((s) => s.replace(/:$/, '')) },
      },
    );
  }
  // Credentials in a URL are a classic filter bypass (http://public@private/) and leak into logs: refused outright.
  if (url.username !== '' || url.password !== '') {
    throw new EngineError('URL_NOT_ALLOWED', 'url: URLs with a user name or password are not allowed', {
      details: { field: 'url' },
    });
  }
  if (url.hostname === '') {
    throw new EngineError('INVALID_INPUT', 'url: the URL has no host', { details: { field: 'url' } });
  }
  return url;
}

export const hostOf = (url: URL) => (url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname);

export const notAllowed = (host: string) =>
  new EngineError(
    'URL_NOT_ALLOWED',
    `url: the host "${host}" resolves to a private or otherwise non-public address, which this server does not fetch`,
    {
      details: { field: 'url', host },
    },
  );

export const unresolvable = (host: string, cause?: unknown) =>
  new EngineError('INVALID_DOCUMENT', `The page could not be loaded: the host "${host}" could not be resolved`, {
    cause,
    details: { host },
  });

/**
 * Resolve a host and apply the policy: every A and AAAA record must be public or in the operator's allow-list (one
 * other record is enough to refuse, since which one the connection would use is not ours to choose). IP literals
 * are judged as they are; a host the allow-list names is let through whatever it resolves to.
 */
export async function checkHost(host: string, opts: Omit<CheckUrlOptions, 'schemes'>): Promise<ResolvedAddress[]> {
  const exempt = opts.allowPrivate || (opts.allowHost?.(host) ?? false) || (opts.allowList?.allowsHost(host) ?? false);
  const allowed = (ip: string) => isPublicAddress(ip) || (opts.allowList?.allowsAddress(ip) ?? false);
  if (ipaddr.isValid(host)) {
    if (!exempt && !allowed(host)) throw notAllowed(host);
    return [{ address: host, family: host.includes(':') ? 6 : 4 }];
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await (opts.lookup ?? systemLookup)(host);
  } catch (err) {
    throw unresolvable(host, err);
  }
  if (addresses.length === 0) throw unresolvable(host);
  if (!exempt && addresses.some((a) => !allowed(a.address))) throw notAllowed(host);
  return addresses;
}

/** Vet a URL and resolve its host under the policy (URL_NOT_ALLOWED, INVALID_INPUT or INVALID_DOCUMENT when not). */
export async function checkUrl(raw: string, opts: CheckUrlOptions): Promise<CheckedUrl> {
  const url = parseTargetUrl(raw, opts.schemes);
  const host = hostOf(url);
  const addresses = await checkHost(host, opts);
  return { url, host, port: url.port ? Number(url.port) : (DEFAULT_PORTS[url.protocol] ?? 80), addresses };
}
