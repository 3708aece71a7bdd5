import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';

describe('GET /legal/{terms,privacy} and /service-info', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { JOB_RESULT_TTL_HOURS: '72' } });
  });
  afterAll(() => t.close());

  describe('200', () => {
    it('service-info quotes the configured retention of job results and the trial length', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/service-info' });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.service).toEqual({ jobResultRetentionHours: 72, uploadsKept: false, trialDays: 14 });
    });

    it("answers the default, then the operator's file once it is put in DATA_DIR, without a restart", async () => {
      const before = (await t.app.inject({ method: 'GET', url: '/api/v1/legal/terms' })).json().data.legal;
      expect(before.source).toBe('default');
      writeFileSync(path.join(t.app.config.dataDir, 'terms.md'), '# Our terms\n\nBe nice.\n');
      const after = (await t.app.inject({ method: 'GET', url: '/api/v1/legal/terms' })).json().data.legal;
      expect(after).toMatchObject({ document: 'terms', source: 'operator', html: expect.stringContaining('Be nice.') });
      const privacy = (await t.app.inject({ method: 'GET', url: '/api/v1/legal/privacy?lang=fr' })).json().data.legal;
      expect(privacy).toMatchObject({
        source: 'default',
        html: expect.stringContaining('Politique de confidentialité'),
      });
    });
  });

  describe('422', () => {
    it('refuses a language with no default text', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/legal/privacy?lang=de' })).statusCode).toBe(422);
    });
  });
});
