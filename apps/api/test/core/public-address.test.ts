import { describe, expect, it } from 'vitest';
import { EngineError } from '../../src/core/errors';
import { PinnedResolver } from '../../src/core/net/pinned-resolver';
import { checkUrl, isPublicAddress, type LookupFn } from '../../src/core/net/public-address';

const v4 = (address: string) => ({ address, family: 4 as const });
const v6 = (address: string) => ({ address, family: 6 as const });
const table =
  (map: Record<string, Array<{ address: string; family: 4 | 6 }>>): LookupFn =>
  async (h) => {
    const r = map[h];
    if (!r) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${h}`), { code: 'ENOTFOUND' });
    return r;
  };

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'OK';
  } catch (err) {
    expect(err).toBeInstanceOf(EngineError);
    return (err as EngineError).code;
  }
}

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '192.0.2.1',
    '198.18.0.1',
    '240.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
    '2001:db8::1',
    '::127.0.0.1',
    'fec0::1',
    'not-an-ip',
    '',
    '127.1',
    '0x7f.0.0.1',
    '2130706433',
  ])('refuses %s', (ip) => expect(isPublicAddress(ip)).toBe(false));

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:2800:220:1:248:1893:25c8:1946',
    '::ffff:8.8.8.8',
    '[2001:4860:4860::8888]',
  ])('accepts %s', (ip) => expect(isPublicAddress(ip)).toBe(true));
});

describe('checkUrl', () => {
  const lookup = table({
    'public.test': [v4('93.184.216.34'), v6('2606:2800:220:1:248:1893:25c8:1946')],
    'mixed.test': [v4('93.184.216.34'), v4('10.0.0.5')],
    'internal.test': [v4('127.0.0.1')],
    'v6local.test': [v6('::1')],
    'metadata.test': [v4('169.254.169.254')],
  });

  it('resolves a public host to all its addresses', async () => {
    const r = await checkUrl('https://public.test/a?b=1', { allowPrivate: false, lookup });
    expect(r.host).toBe('public.test');
    expect(r.port).toBe(443);
    expect(r.addresses.map((a) => a.address)).toEqual(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
  });

  it('refuses a host when any of its records is private', async () => {
    const err = await checkUrl('http://mixed.test/', { allowPrivate: false, lookup }).catch((e: EngineError) => e);
    expect((err as EngineError).code).toBe('URL_NOT_ALLOWED');
    expect((err as EngineError).message).toContain('mixed.test');
  });

  it.each([
    'http://internal.test/',
    'http://v6local.test/',
    'http://metadata.test/latest/meta-data/',
    'http://127.0.0.1:8080/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://0177.0.0.1/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://169.254.169.254/',
    'http://10.1.2.3/',
    'http://100.64.1.1/',
    'http://[fd00::1]/',
    'http://0.0.0.0/',
    'http://localhost/',
  ])('refuses %s', async (url) => {
    const lk = table({ localhost: [v4('127.0.0.1'), v6('::1')] });
    expect(
      await codeOf(
        checkUrl(url, { allowPrivate: false, lookup: async (h) => (h === 'localhost' ? lk(h) : lookup(h)) }),
      ),
    ).toBe('URL_NOT_ALLOWED');
  });

  it('lets private addresses through when allowed', async () => {
    expect(await codeOf(checkUrl('http://internal.test/', { allowPrivate: true, lookup }))).toBe('OK');
    expect(await codeOf(checkUrl('http://127.0.0.1/', { allowPrivate: true, lookup }))).toBe('OK');
  });

  it('exempts only the hosts of an allow rule', async () => {
    const allowHost = (h: string) => h === 'internal.test';
    expect(await codeOf(checkUrl('http://internal.test/', { allowPrivate: false, lookup, allowHost }))).toBe('OK');
    expect(await codeOf(checkUrl('http://metadata.test/', { allowPrivate: false, lookup, allowHost }))).toBe(
      'URL_NOT_ALLOWED',
    );
  });

  it.each([
    ['file:///etc/passwd', 'URL_NOT_ALLOWED'],
    ['ftp://public.test/x', 'URL_NOT_ALLOWED'],
    ['javascript:alert(1)', 'URL_NOT_ALLOWED'],
    ['data:text/html,hi', 'URL_NOT_ALLOWED'],
    ['gopher://public.test/', 'URL_NOT_ALLOWED'],
    ['http://user:pass@public.test/', 'URL_NOT_ALLOWED'],
    ['http://public.test@127.0.0.1/', 'URL_NOT_ALLOWED'],
    ['not a url', 'INVALID_INPUT'],
    ['//public.test/', 'INVALID_INPUT'],
    ['http://', 'INVALID_INPUT'],
  ])('%s → %s', async (url, code) => {
    expect(await codeOf(checkUrl(url, { allowPrivate: true, lookup }))).toBe(code);
  });

  it('answers INVALID_DOCUMENT naming the host when it does not resolve', async () => {
    const err = (await checkUrl('http://nowhere.test/', { allowPrivate: false, lookup }).catch(
      (e) => e,
    )) as EngineError;
    expect(err.code).toBe('INVALID_DOCUMENT');
    expect(err.message).toContain('nowhere.test');
  });
});

describe('PinnedResolver', () => {
  it('resolves each host once, so a rebinding DNS answer is never seen', async () => {
    let calls = 0;
    const rebinding: LookupFn = async () => (calls++ === 0 ? [v4('93.184.216.34')] : [v4('127.0.0.1')]);
    const r = new PinnedResolver({ allowPrivate: false, lookup: rebinding });
    expect(await r.pick('rebind.test')).toEqual({ ok: true, address: '93.184.216.34' });
    expect(await r.pick('REBIND.test.')).toEqual({ ok: true, address: '93.184.216.34' });
    expect(calls).toBe(1);
  });

  it('remembers refusals with their reason and prefers IPv4', async () => {
    const r = new PinnedResolver({
      allowPrivate: false,
      lookup: table({ 'a.test': [v6('2606:4700::1'), v4('93.184.216.34')], 'b.test': [v4('10.0.0.1')] }),
    });
    expect(await r.pick('a.test')).toEqual({ ok: true, address: '93.184.216.34' });
    const b = await r.pick('b.test');
    expect(b.ok).toBe(false);
    expect(r.refused.get('b.test')?.code).toBe('URL_NOT_ALLOWED');
  });
});
