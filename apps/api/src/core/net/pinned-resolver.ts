import type { EngineError } from '../errors';
import { checkHost, type CheckUrlOptions, type ResolvedAddress } from './public-address';

export type HostDecision = { ok: true; addresses: ResolvedAddress[] } | { ok: false; error: EngineError };

/**
 * One job's view of DNS: each host is resolved and judged once, and that answer is used for the rest of the job.
 * DNS rebinding (a short TTL that answers a public address to the check and a private one to the connection) then has
 * nothing to race: whoever connects on the job's behalf asks this resolver and connects to the address it returns.
 */
export class PinnedResolver {
  private readonly cache = new Map<string, Promise<HostDecision>>();
  /** Hosts refused by the policy or not resolvable, in order, for error reports. */
  readonly refused = new Map<string, EngineError>();

  constructor(private readonly opts: Omit<CheckUrlOptions, 'schemes'>) {}

  /** Hosts are compared lowercased and without a trailing dot ("EXAMPLE.com." is example.com). */
  static normalise(host: string): string {
    const h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    return h.toLowerCase().replace(/\.$/, '');
  }

  decide(host: string): Promise<HostDecision> {
    const key = PinnedResolver.normalise(host);
    let d = this.cache.get(key);
    if (!d) {
      d = checkHost(key, this.opts).then(
        (addresses): HostDecision => ({ ok: true, addresses }),
        (error: EngineError): HostDecision => {
          this.refused.set(key, error);
          return { ok: false, error };
        },
      );
      this.cache.set(key, d);
    }
    return d;
  }

  /** The address to connect to for `host`, or the reason not to. IPv4 first: it is what most servers answer on. */
  async pick(host: string): Promise<{ ok: true; address: string } | { ok: false; error: EngineError }> {
    const d = await this.decide(host);
    if (!d.ok) return d;
    const a = d.addresses.find((x) => x.family === 4) ?? d.addresses[0]!;
    return { ok: true, address: a.address };
  }
}
