import { createServer, type Server } from 'node:http';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { numberedPagesPdf } from './support/documents';
import { startServer, type E2eServer } from './support/server';
import { launchBrowser, newPage } from './support/browser';
import { accessTokenOf, apiClient, dataOf } from './support/api';
import { signIn, strongPassword, verifiedUser } from './support/flows';

/**
 * The Jobs & Webhooks page against the real server: a job sent with async=true and a callbackUrl whose receiver
 * answers 500 once, then 200; the page shows the job's progress and both delivery attempts, and resends.
 */
describe('jobs and webhooks in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  let receiver: Server;
  let hookUrl = '';
  let pdf = '';
  const statuses = [500];
  let received = 0;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received += 1;
        res.statusCode = statuses.shift() ?? 200;
        res.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    // The receiver is on this machine: the intranet switch lets callbacks reach it; retries come quickly.
    [server, browser, pdf] = await Promise.all([
      startServer({ env: { URL_TO_PDF_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '200' } }),
      launchBrowser(),
      numberedPagesPdf(2),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    receiver?.close();
    if (pdf) rmSync(path.dirname(pdf), { recursive: true, force: true });
  });

  it("lists a job's progress and its webhook's delivery attempts, and resends", async () => {
    const email = await verifiedUser(server, 'Jonas Jobs', 'jobs');
    const dashboard = apiClient(server.url, { accessToken: await accessTokenOf(server.url, email, strongPassword) });
    dataOf(
      await dashboard.api.POST('/api/v1/my/subscriptions', { body: { planName: 'enterprise' } }),
      'start the Enterprise trial',
    );
    const created = await dashboard.api.POST('/api/v1/my/api-keys', {
      body: { name: 'Jobs', environment: 'development', planName: 'enterprise' },
    });
    const key = dataOf(created, 'create key').apiKey.key!;
    const client = apiClient(server.url, { apiKey: key });
    const bytes = readFileSync(pdf);
    const res = await client.upload('/api/v1/pdf/merge', {
      files: [
        { data: bytes, name: 'a.pdf' },
        { data: bytes, name: 'b.pdf' },
      ],
      fields: { callbackUrl: hookUrl },
    });
    expect(res.status).toBe(202);
    const { jobId } = (await client.readJson<{ data: { jobId: string } }>(res)).data;

    const { page, watch, context } = await newPage(browser);
    await signIn(page, server.url, email);
    await page.getByRole('link', { name: 'Jobs & Webhooks' }).click();
    await page.getByRole('heading', { name: 'Jobs & Webhooks', level: 1 }).waitFor();
    const row = page.locator(`[data-job-id="${jobId}"]`);
    await row.getByText('/pdf/merge').waitFor();
    // The list refreshes by itself while the job runs and its webhook is sent: it ends at 100 % and delivered.
    await row.getByText('succeeded').waitFor();
    const bar = row.getByRole('progressbar');
    await page.waitForFunction(
      (id) =>
        document.querySelector(`[data-job-id="${id}"] [role="progressbar"]`)?.getAttribute('aria-valuenow') === '100',
      jobId,
    );
    expect(await bar.getAttribute('aria-valuenow')).toBe('100');
    await row.getByText('delivered').waitFor({ timeout: 30_000 });

    await row.getByRole('button', { name: `Show details of job ${jobId}` }).click();
    const attempts = page.getByRole('list', { name: `Delivery attempts of job ${jobId}` });
    await attempts.getByText('Attempt 2').waitFor();
    expect(await attempts.getByTestId('delivery').count()).toBe(2);
    expect(await attempts.getByText('500', { exact: true }).count()).toBe(1);
    expect(await attempts.getByText('200', { exact: true }).count()).toBe(1);

    await page.getByRole('button', { name: 'Resend' }).click();
    await attempts.getByText('Attempt 1').first().waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="delivery"]').length === 3, undefined, {
      timeout: 30_000,
    });
    expect(received).toBe(3);

    // The signing secret is there to copy and rotate.
    const secret = page.getByTestId('webhook-secret');
    expect(await secret.textContent()).toMatch(/^whsec_/);
    watch.assertClean();
    await context.close();
  });
});
