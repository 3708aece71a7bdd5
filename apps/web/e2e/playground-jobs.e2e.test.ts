import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startServer, type E2eServer } from './support/server';
import { launchBrowser, newPage, screenshot, viewports } from './support/browser';
import { accessTokenOf, apiClient, dataOf } from './support/api';
import { signIn, strongPassword, verifiedUser } from './support/flows';

/**
 * The playground's jobs door against the real server: a Markdown document converted as a job (async=true), its
 * progress followed on the page, its PDF downloaded and read back, and the same job on the Jobs page with its expiry.
 */
describe('a playground call sent as a job', () => {
  let server: E2eServer;
  let browser: Browser;
  let dir = '';
  let markdown = '';

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'playground-job-'));
    markdown = path.join(dir, 'notes.md');
    writeFileSync(markdown, '# Converted as a job\n\nThe playground followed this job until its PDF was ready.\n');
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('converts a document as a job, shows its progress, downloads its result and links to the Jobs page', async () => {
    const email = await verifiedUser(server, 'Jade Jobs', 'playground-job');
    const dashboard = apiClient(server.url, { accessToken: await accessTokenOf(server.url, email, strongPassword) });
    dataOf(await dashboard.api.POST('/api/v1/my/subscriptions', { body: { planName: 'pro' } }), 'start the Pro trial');
    const created = await dashboard.api.POST('/api/v1/my/api-keys', {
      body: { name: 'Playground jobs', environment: 'development', planName: 'pro' },
    });
    const key = dataOf(created, 'create key').apiKey.key!;

    const { page, watch, context } = await newPage(browser, viewports.desktop);
    await signIn(page, server.url, email);
    await page.goto(`${server.url}/playground`);
    await page.getByRole('heading', { name: 'API Playground', level: 1 }).waitFor();
    const endpoints = page.getByRole('navigation', { name: 'Endpoints' });
    await endpoints.getByRole('searchbox', { name: 'Filter endpoints' }).fill('markdown');
    await endpoints.getByRole('button', { name: /Markdown to PDF/ }).click();
    await page.locator('#pg-api-key').fill(key);
    await page.getByLabel(/^Document/).setInputFiles(markdown);
    await page.getByRole('checkbox', { name: 'Send as a job (async=true)' }).click();
    expect(await page.getByTestId('code-curl').textContent()).toContain("--form-string 'async=true'");
    await page.getByRole('button', { name: 'Send request' }).click();

    // The job appears at once, its state read from the server until it ends.
    const job = page.getByTestId('playground-job');
    await job.waitFor();
    const jobId = (await job.locator('code').textContent())!.trim();
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    await page.locator('[data-testid="playground-job"][data-status="succeeded"]').waitFor({ timeout: 60_000 });
    expect(await job.getByRole('progressbar', { name: 'Job progress' }).getAttribute('aria-valuenow')).toBe('100');

    // Its result, fetched from /jobs/{id}/result, is offered as the synchronous call's file would be.
    await page.locator('[data-testid="response-body"][data-state="success"]').waitFor();
    const summary = JSON.parse((await page.getByTestId('response-body').textContent())!) as {
      status: number;
      file: { type: string; size: number };
    };
    expect(summary.status).toBe(200);
    expect(summary.file.type).toBe('application/pdf');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /Download/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const text = execFileSync('pdftotext', [await download.path(), '-'], { encoding: 'utf8' });
    expect(text).toContain('Converted as a job');
    expect(text.replace(/\s+/g, ' ')).toContain('The playground followed this job until its PDF was ready.');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'playground-job-desktop');

    // The link leads to the Jobs page, where the same job is listed with the time its result is kept until.
    await job.getByRole('link', { name: 'See it on the Jobs page' }).click();
    await page.getByRole('heading', { name: 'Jobs & Webhooks', level: 1 }).waitFor();
    const row = page.locator(`[data-job-id="${jobId}"]`);
    await row.getByText('/conversion/markdown-to-pdf').waitFor();
    await row.getByText('succeeded').waitFor();
    const expires = (await row.getByTestId('job-expires').textContent())!;
    expect(expires).toMatch(/\d{4}/);
    expect(await row.getByTestId('job-expires').locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);

    watch.assertClean();
    await context.close();
  });
});
