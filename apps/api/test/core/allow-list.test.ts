import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/env';
import { ConfigError } from '../../src/config/config-error';
import { parseAllowList } from '../../src/core/net/allow-list';
import { checkUrl, type LookupFn } from '../../src/core/net/public-address';
import { EngineError } from '../../src/core/errors';

const lookup: LookupFn = async (host) => {
  const table: Record<string, string[]> = {
    'intranet.example': ['10.9.8.7'],
    'wiki.corp.example': ['192.168.4.4'],
    'corp.example': ['192.168.4.5'],
    'mixed.corp-range.example': ['10.20.1.1', '10.99.0.1'],
    'ranged.example': ['10.20.3.4'],
    'public.example': ['93.184.216.34'],
  };
  const found = table[host];
  if (!found) throw new Error(`ENOTFOUND ${host}`);
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);
};

const list = parseAllowList('intranet.example, *.corp.example 10.20.0.0/16,fd00::/8 , 172.16.5.5');
const verdict = async (url: string, allowList = list) => {
  try {
    await checkUrl(url, { allowPrivate: false, allowList, lookup });
    return 'allowed';
  } catch (err) {
    expect(err).toBeInstanceOf(EngineError);
    return (err as EngineError).code;
  }
};

describe('the outbound allow-list (OUTBOUND_ALLOW_LIST)', () => {
  it('lets through the hosts, suffixes, ranges and addresses it names, and nothing else private', async () => {
    expect(await verdict('http://intranet.example/page')).toBe('allowed');
    expect(await verdict('http://wiki.corp.example/')).toBe('allowed');
    // A *. entry is the names under it, not the bare name.
    expect(await verdict('http://corp.example/')).toBe('URL_NOT_ALLOWED');
    expect(await verdict('http://ranged.example/')).toBe('allowed');
    expect(await verdict('http://10.20.255.1/')).toBe('allowed');
    expect(await verdict('http://10.21.0.1/')).toBe('URL_NOT_ALLOWED');
    expect(await verdict('http://172.16.5.5/')).toBe('allowed');
    expect(await verdict('http://172.16.5.6/')).toBe('URL_NOT_ALLOWED');
    expect(await verdict('http://[fd00::1]/')).toBe('allowed');
    expect(await verdict('http://[fe80::1]/')).toBe('URL_NOT_ALLOWED');
    // The IPv4 address inside an IPv4-mapped IPv6 literal is the one judged.
    expect(await verdict('http://[::ffff:10.20.0.9]/')).toBe('allowed');
    // Cloud metadata and loopback stay closed unless listed.
    expect(await verdict('http://169.254.169.254/latest/meta-data/')).toBe('URL_NOT_ALLOWED');
    expect(await verdict('http://127.0.0.1/')).toBe('URL_NOT_ALLOWED');
    // A name with one record outside the list is refused: which record the connection uses is not ours to choose.
    expect(await verdict('http://mixed.corp-range.example/')).toBe('URL_NOT_ALLOWED');
    expect(await verdict('http://public.example/')).toBe('allowed');
    // The scheme rules stay: the list opens addresses, not file: or credentials.
    expect(await verdict('file:///etc/passwd')).toBe('URL_NOT_ALLOWED');
    expect(await verdict('http://user:pw@intranet.example/')).toBe('URL_NOT_ALLOWED');
  });

  it('is empty by default: public addresses only', async () => {
    const none = parseAllowList('');
    expect(none.empty).toBe(true);
    expect(await verdict('http://intranet.example/', none)).toBe('URL_NOT_ALLOWED');
    expect(await verdict('http://10.20.0.1/', none)).toBe('URL_NOT_ALLOWED');
    expect(await verdict('http://public.example/', none)).toBe('allowed');
  });

  it('refuses to start on an entry it cannot read, naming the variable and the entry', () => {
    let error: unknown;
    try {
      loadConfig({
        OUTBOUND_ALLOW_LIST: 'intranet.example, 10.0.0.0/33, http://x/',
        DATA_DIR: '/tmp/docflow-allow-list',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const issues = (error as ConfigError).issues.join('\n');
    expect(issues).toMatch(/OUTBOUND_ALLOW_LIST/);
    expect(issues).toContain('10.0.0.0/33');
    expect(issues).toContain('http://x/');
    expect(
      loadConfig({ OUTBOUND_ALLOW_LIST: '10.0.0.0/8', DATA_DIR: '/tmp/docflow-allow-list' }).outbound,
    ).toMatchObject({ allowPrivate: false });
  });
});
