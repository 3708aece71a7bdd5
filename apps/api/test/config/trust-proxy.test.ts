import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error';
import { loadConfig } from '../../src/config/env';
import { buildTestApp } from '../helper';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'docflow-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const base = { DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) };

describe('TRUST_PROXY', () => {
  it('takes a number of hops or the proxies addresses, never "trust every hop"', () => {
    expect(loadConfig(base).TRUST_PROXY).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).TRUST_PROXY).toBe(
      '10.0.0.0/8,127.0.0.1,::1',
    );
    for (const bad of ['true', 'yes', 'proxy.example.com']) {
      const err = (() => {
        try {
          loadConfig({ ...base, TRUST_PROXY: bad });
        } catch (e) {
          return e;
        }
      })();
      expect(err, bad).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(/TRUST_PROXY/);
    }
  });

  // Behind one proxy (10.0.0.2), a client that writes its own X-Forwarded-For entries still counts as the address the
  // proxy saw (the last entry): here the login throttle, which locks an account+address after 2 failures.
  it.each([['1'], ['10.0.0.0/8']])(
    'with %s, a forged X-Forwarded-For does not give a client a new address',
    async (t) => {
      const app = await buildTestApp({ env: { TRUST_PROXY: t, LOGIN_MAX_FAILURES: '2' } });
      try {
        const attempt = (forged: string) =>
          app.app.inject({
            method: 'POST',
            url: '/api/v1/auth/login',
            remoteAddress: '10.0.0.2',
            headers: { 'x-forwarded-for': `${forged}, 203.0.113.5` },
            payload: { email: 'nobody@example.com', password: 'wrong-password-1' },
          });
        expect((await attempt('6.6.6.1')).statusCode).toBe(401);
        expect((await attempt('6.6.6.2')).statusCode).toBe(401);
        expect((await attempt('6.6.6.3')).statusCode).toBe(429);
      } finally {
        await app.close();
      }
    },
  );
});
