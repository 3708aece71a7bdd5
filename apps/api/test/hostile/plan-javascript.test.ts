import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helper';
import { createUserWithApiKey } from '../support/api-keys';
import { form } from '../fixtures/multipart';
import { pagesText } from '../fixtures/pdfs';
import { saveBody } from '../fixtures/results';

/** The plan decides whether a page's JavaScript runs and how long a render may take (migration 0020). */
let t: TestApp;
let free: string;
let pro: string;
beforeAll(async () => {
  t = await buildTestApp();
  // A short deadline for Pro in this database only: an endless script must be stopped by the plan's time, not the server's.
  await t.database.sql.exec(`UPDATE plans SET processing_timeout_seconds = 3 WHERE name = 'pro'`);
  free = (await createUserWithApiKey(t, { plan: 'free' })).apiKey;
  pro = (await createUserWithApiKey(t, { plan: 'pro', subscription: 'active' })).apiKey;
}, 60_000);
afterAll(async () => t.close());

const page = `<!doctype html><html><body><p id="p">STATIC TEXT</p>
  <script>document.getElementById('p').textContent = 'SCRIPT RAN';</script></body></html>`;

const htmlToPdf = (key: string, fields: Record<string, string>) => {
  const f = form(fields);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/conversion/html-to-pdf',
    payload: f.payload,
    headers: { ...f.headers, 'x-api-key': key },
  });
};
const textOf = (res: { statusCode: number; body: string; rawPayload: Buffer }) => {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return pagesText(saveBody(res.rawPayload)).join('\n');
};

describe('JavaScript in HTML conversions follows the plan', () => {
  it('Free: the page is printed without running its scripts', async () => {
    expect(textOf(await htmlToPdf(free, { html: page }))).toContain('STATIC TEXT');
  }, 60_000);

  it('Free: asking for JavaScript is refused with 403 naming the field', async () => {
    const res = await htmlToPdf(free, { html: page, javascript: 'true' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'ENDPOINT_NOT_ALLOWED', details: { field: 'javascript' } });
    expect(res.json().error).toMatch(/^javascript: /);
  }, 60_000);

  it('Pro: scripts run by default, and javascript=false turns them off', async () => {
    expect(textOf(await htmlToPdf(pro, { html: page }))).toContain('SCRIPT RAN');
    expect(textOf(await htmlToPdf(pro, { html: page, javascript: 'false' }))).toContain('STATIC TEXT');
  }, 60_000);

  it("a script that never ends is stopped at the plan's deadline (504), not the server's", async () => {
    const res = await htmlToPdf(pro, { html: '<!doctype html><p>x</p><script>for (;;) {}</script>' });
    expect(res.statusCode).toBe(504);
    // The error names the deadline that stopped it: the plan's 3 s, not the server's PROCESSING_TIMEOUT_MS.
    expect(res.json()).toMatchObject({ code: 'TIMEOUT', error: expect.stringMatching(/longer than 3 s/) });
  }, 60_000);
});

describe('a waitForExpression runs in the page: it follows the plan too', () => {
  it('Free: refused with 403 naming it (on the Gotenberg routes, in plain text)', async () => {
    const f = form({ waitForExpression: 'document.title === ""' }, [
      { field: 'files', content: Buffer.from(page), filename: 'index.html', contentType: 'text/html' },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/gotenberg/forms/chromium/screenshot/html',
      payload: f.payload,
      headers: { ...f.headers, 'x-api-key': free },
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).toMatch(/^waitForExpression: /);
  }, 60_000);
});
