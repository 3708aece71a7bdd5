import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagesText } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';
import { gotenbergAppForSuite } from './gotenberg-api';

/**
 * How Gotenberg's Chromium routes load a page: userAgent, waitForSelector, skipNetworkIdleEvent, and the checks of the
 * page's resources (failOnResourceHttpStatusCodes with ignoreResourceHttpStatusDomains, failOnResourceLoadingFailed),
 * on the real Chromium against a local site (the app lets renders reach private hosts).
 */
const api = gotenbergAppForSuite({ env: { URL_TO_PDF_ALLOW_PRIVATE: 'true' } });
let site: Server;
let base = '';
const page = (body: string) => `<!doctype html><html><body>${body}</body></html>`;
beforeAll(async () => {
  site = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    const url = req.url ?? '/';
    if (url === '/missing.png') {
      res.statusCode = 404;
      res.end();
    } else if (url === '/agent')
      res.end(
        page(
          `<p>Header ${req.headers['user-agent']}</p><p id="nav"></p>` +
            '<script>document.getElementById("nav").textContent = "Navigator " + navigator.userAgent</script>',
        ),
      );
    else if (url === '/late')
      res.end(
        page(
          '<p>Early</p><script>setTimeout(() => { const p = document.createElement("p"); p.id = "late"; ' +
            'p.textContent = "Arrived late"; document.body.append(p) }, 1500)</script>',
        ),
      );
    else if (url === '/slow-data') setTimeout(() => res.end('Fetched data'), 1500);
    else if (url === '/fetching')
      res.end(
        page(
          '<p id="out">Waiting</p><script>addEventListener("load", () => fetch("/slow-data").then((r) => r.text())' +
            '.then((t) => { document.getElementById("out").textContent = t }))</script>',
        ),
      );
    else if (url === '/fetching-three')
      // Three requests in flight after load: more than "almost idle" allows (two).
      res.end(
        page(
          '<p id="out">Waiting</p><script>addEventListener("load", () => Promise.all([1, 2, 3].map((i) => ' +
            'fetch("/slow-data?" + i).then((r) => r.text()))).then((t) => { document.getElementById("out")' +
            '.textContent = t.length + " answers: " + t[0] }))</script>',
        ),
      );
    else if (url.startsWith('/slow-data?')) setTimeout(() => res.end('Fetched data'), 1500);
    else if (url === '/with-missing-image') res.end(page('<p>Image below</p><img src="/missing.png">'));
    else if (url === '/with-unreachable-image') res.end(page('<p>Image below</p><img src="http://127.0.0.1:1/x.png">'));
    else res.end(page('<p>Plain</p>'));
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => site.close(r)));

type Res = { statusCode: number; rawPayload: Buffer; body: string };
const textOf = (res: Res) => {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return pagesText(saveBody(res.rawPayload)).join('\n');
};
const convertUrl = (path: string, fields: Record<string, string> = {}) =>
  api.gotenberg('/forms/chromium/convert/url', { url: `${base}${path}`, ...fields });

describe('userAgent', () => {
  it("200: the page's requests and navigator.userAgent carry it", async () => {
    const text = textOf(await convertUrl('/agent', { userAgent: 'DocFlowTestAgent/1.0 (Gotenberg)' }));
    expect(text).toContain('Header DocFlowTestAgent/1.0 (Gotenberg)');
    expect(text).toContain('Navigator DocFlowTestAgent/1.0 (Gotenberg)');
  });

  it('400: a value with a line break is refused naming the field', async () => {
    const res = await convertUrl('/agent', { userAgent: 'Agent\r\nX-Injected: 1' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("form field 'userAgent' is invalid");
  });
});

describe('waitForSelector and skipNetworkIdleEvent', () => {
  it('200: the capture waits until an element matching the selector is visible', async () => {
    const text = textOf(await convertUrl('/late', { waitForSelector: '#late' }));
    expect(text).toContain('Early');
    expect(text).toContain('Arrived late');
  });

  it('400: a selector that is not CSS is named', async () => {
    const res = await convertUrl('/late', { waitForSelector: 'p[' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe("The selector 'p[' (waitForSelector) returned an exception or undefined");
  });

  it('200: skipNetworkAlmostIdleEvent=false waits while more than two requests are in flight; the default does not', async () => {
    expect(textOf(await convertUrl('/fetching-three', { skipNetworkAlmostIdleEvent: 'false' }))).toContain(
      '3 answers: Fetched data',
    );
    const text = textOf(await convertUrl('/fetching-three', { skipNetworkAlmostIdleEvent: 'true' }));
    expect(text).toContain('Waiting');
    expect(text).not.toContain('answers');
  });

  it('200: skipNetworkIdleEvent=false waits for the requests the page makes after load', async () => {
    expect(textOf(await convertUrl('/fetching', { skipNetworkIdleEvent: 'false' }))).toContain('Fetched data');
  });
});

describe("the page's resources", () => {
  it('409 when a resource answers a listed status, naming it; ignored domains and the default print it', async () => {
    const failed = await convertUrl('/with-missing-image', { failOnResourceHttpStatusCodes: '[499]' });
    expect(failed.statusCode).toBe(409);
    expect(failed.body).toBe(`Invalid HTTP status code from resources:\n${base}/missing.png - 404: Not Found`);
    expect(
      textOf(
        await convertUrl('/with-missing-image', {
          failOnResourceHttpStatusCodes: '[499]',
          ignoreResourceHttpStatusDomains: '["127.0.0.1"]',
        }),
      ),
    ).toContain('Image below');
    expect(textOf(await convertUrl('/with-missing-image', { failOnResourceHttpStatusCodes: '[500]' }))).toContain(
      'Image below',
    );
    expect(textOf(await convertUrl('/with-missing-image'))).toContain('Image below');
  });

  it('409 when a resource cannot be loaded at all and failOnResourceLoadingFailed is set', async () => {
    const failed = await convertUrl('/with-unreachable-image', { failOnResourceLoadingFailed: 'true' });
    expect(failed.statusCode).toBe(409);
    // Chromium refuses port 1 itself (ERR_UNSAFE_PORT); what Gotenberg prints is the resource's type and the error.
    expect(failed.body).toMatch(/^Chromium failed to load resources: resource Image: net::ERR_[A-Z_]+$/);
    expect(textOf(await convertUrl('/with-unreachable-image'))).toContain('Image below');
  });

  it('400: lists that are not JSON arrays of statuses or host names are named', async () => {
    const res = await convertUrl('/', {
      failOnResourceHttpStatusCodes: '["404"]',
      ignoreResourceHttpStatusDomains: '"example.com"',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("form field 'failOnResourceHttpStatusCodes' is invalid");
    expect(res.body).toContain("form field 'ignoreResourceHttpStatusDomains' is invalid");
  });
});
