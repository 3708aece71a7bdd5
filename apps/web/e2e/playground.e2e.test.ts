import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointCatalogue } from '@docflow/contracts';
import type { Browser, Page } from 'playwright-core';
import { numberedPagesPdf } from './support/documents';
import { startServer, type E2eServer } from './support/server';
import { launchBrowser, newPage, screenshot, viewports } from './support/browser';
import { accessTokenOf, apiClient, dataOf } from './support/api';
import { signIn, verifiedUser, strongPassword } from './support/flows';

/**
 * The API playground against the real server: a Pro-trial key, a QR code whose PNG is downloaded and decoded back,
 * text extracted from a real PDF, a wrong key shown in red, and the page at phone width.
 */

/** A 3-page PDF reading "Page 1", "Page 2", "Page 3", made before the tests. */
let samplePdf = '';

/** Start the Pro trial and create a key through the dashboard API, as the Plans and Keys pages do. */
async function proTrialKey(server: E2eServer, email: string): Promise<string> {
  const client = apiClient(server.url, { accessToken: await accessTokenOf(server.url, email, strongPassword) });
  dataOf(await client.api.POST('/api/v1/my/subscriptions', { body: { planName: 'pro' } }), 'start the Pro trial');
  const created = await client.api.POST('/api/v1/my/api-keys', {
    body: { name: 'Playground', environment: 'development', planName: 'pro' },
  });
  return dataOf(created, 'create key').apiKey.key!;
}

async function openPlayground(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/playground`);
  await page.getByRole('heading', { name: 'API Playground', level: 1 }).waitFor();
}

const endpoints = (page: Page) => page.getByRole('navigation', { name: 'Endpoints' });
const responseBody = (page: Page) => page.getByTestId('response-body');

/** A full-page screenshot from the top (the shell's header is sticky). */
async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

describe('the API playground in the browser', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser, samplePdf] = await Promise.all([startServer(), launchBrowser(), numberedPagesPdf(3)]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (samplePdf) rmSync(path.dirname(samplePdf), { recursive: true, force: true });
  });

  it('calls the real API: a QR code to download and decode, text from a PDF, a wrong key in red', async () => {
    const email = await verifiedUser(server, 'Paula Playground', 'playground');
    const key = await proTrialKey(server, email);
    expect(key).toMatch(/^dfk_/);

    const { page, watch, context } = await newPage(browser, viewports.desktop);
    await signIn(page, server.url, email);
    await openPlayground(page, server.url);
    // Every processing endpoint of the API: the hand-written forms, and one generated from its schema for the others.
    const posts = endpointCatalogue.filter((e) => e.method === 'POST').length;
    expect(await page.getByTestId('endpoint-option').count()).toBe(posts);
    await page.getByText('The response will appear here after you send a request.').waitFor();

    // A wrong key: the server's 401 answer, shown in red.
    watch.expect(/\/api\/v1\/qrcode\/url$/, 401);
    await endpoints(page)
      .getByRole('button', { name: /QR code for a URL/ })
      .click();
    await page.getByLabel('API key', { exact: false }).first().fill('dfk_not_a_real_key');
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.locator('[data-testid="response-body"][data-state="error"]').waitFor();
    expect(await page.getByTestId('response-status').textContent()).toContain('401');

    // The real key: a PNG, shown inline and downloadable, that decodes back to the URL.
    const apiKeyInput = page.locator('#pg-api-key');
    await apiKeyInput.fill(key);
    const target = 'https://docflow.example/playground?from=e2e';
    await page.getByRole('textbox', { name: 'URL' }).fill(target);
    await page.getByRole('spinbutton', { name: /Size/ }).fill('320');
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.locator('[data-testid="response-body"][data-state="success"]').waitFor();
    const preview = page.getByRole('img', { name: /qrcode-url\.png/ });
    await preview.waitFor();
    expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
    const summary = JSON.parse((await responseBody(page).textContent())!) as { file: { type: string; size: number } };
    expect(summary.file.type).toBe('image/png');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /Download/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('qrcode-url.png');
    const pngPath = await download.path();
    const bytes = readFileSync(pngPath);
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(bytes.length).toBe(summary.file.size);
    const decoded = execFileSync('zbarimg', ['--nodbus', '-q', '--raw', pngPath], { encoding: 'utf8' }).trim();
    expect(decoded).toBe(target);
    // The code example shows the same call, with the key read from the environment, never printed.
    const curl = (await page.getByTestId('code-curl').textContent())!;
    expect(curl).toContain('Authorization: Bearer $DOCFLOW_API_KEY');
    expect(curl).toContain('"size":320');
    expect(curl).not.toContain(key);
    await shot(page, 'playground-qrcode-desktop');

    // Another endpoint starts clean, the key stays; text from a real three-page PDF.
    await endpoints(page)
      .getByRole('button', { name: /Extract text/ })
      .click();
    await page.getByText('The response will appear here after you send a request.').waitFor();
    expect(await apiKeyInput.inputValue()).toBe(key);
    await page.getByLabel(/PDF file/).setInputFiles(samplePdf);
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.locator('[data-testid="response-body"][data-state="success"]').waitFor();
    const answer = JSON.parse((await responseBody(page).textContent())!) as {
      success: boolean;
      data: { pageCount: number; text: string };
    };
    expect(answer.success).toBe(true);
    expect(answer.data.pageCount).toBe(3);
    expect(answer.data.text).toContain('Page 1');
    expect(await page.getByTestId('code-curl').textContent()).toContain("-F 'file=@pages_3.pdf'");
    await shot(page, 'playground-extract-text-desktop');

    // A pipeline: the same PDF watermarked, then numbered, in one call; the file it answers has both.
    await endpoints(page)
      .getByRole('button', { name: /Pipeline/ })
      .click();
    await page.getByLabel(/^Document/).setInputFiles(samplePdf);
    await page
      .getByRole('textbox', { name: 'Stages (JSON)' })
      .fill(JSON.stringify([{ op: '/pdf/watermark', text: 'PIPELINED' }, { op: '/pdf/page-numbers' }]));
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.locator('[data-testid="response-body"][data-state="success"]').waitFor();
    const [piped] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /Download/ }).click(),
    ]);
    const pipedText = execFileSync('pdftotext', [await piped.path(), '-'], { encoding: 'utf8' });
    // The watermark is drawn diagonally: its letters come out in pieces.
    expect(pipedText.replace(/\s+/g, '')).toContain('PIPELINED');
    for (const n of [1, 2, 3]) expect(pipedText).toContain(`Page ${n} of 3`);

    // A form generated from the server's schema: found with the filter, its choices the schema's, its call real.
    await endpoints(page).getByRole('searchbox', { name: 'Filter endpoints' }).fill('/pdf/rotate');
    expect(await page.getByTestId('endpoint-option').count()).toBe(1);
    await endpoints(page)
      .getByRole('button', { name: /Rotate/ })
      .click();
    await page.getByLabel(/^PDF file/).setInputFiles(samplePdf);
    await page.getByRole('combobox', { name: /Angle/ }).selectOption('90');
    await page.getByRole('textbox', { name: /Pages/ }).fill('2');
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.locator('[data-testid="response-body"][data-state="success"]').waitFor();
    const [rotated] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /Download/ }).click(),
    ]);
    const rotations = execFileSync('pdfinfo', ['-f', '1', '-l', '3', await rotated.path()], { encoding: 'utf8' });
    expect([...rotations.matchAll(/rot:\s+(\d+)/g)].map((m) => m[1])).toEqual(['0', '90', '0']);

    // The key is remembered for the tab: a reload keeps it.
    await openPlayground(page, server.url);
    expect(await page.locator('#pg-api-key').inputValue()).toBe(key);

    watch.assertClean();
    await context.close();
  });

  it('reads the text of an image with OCR', async () => {
    // A scan-like image of the PDF's first page.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'playground-ocr-'));
    execFileSync('pdftoppm', [
      '-r',
      '150',
      '-f',
      '1',
      '-l',
      '1',
      '-png',
      '-singlefile',
      samplePdf,
      path.join(dir, 'scan'),
    ]);
    const email = await verifiedUser(server, 'Oscar Ocr', 'playground');
    const key = await proTrialKey(server, email);
    const { page, watch, context } = await newPage(browser, viewports.desktop);
    try {
      await signIn(page, server.url, email);
      await openPlayground(page, server.url);
      await endpoints(page)
        .getByRole('button', { name: /OCR: extract text/ })
        .click();
      await page.locator('#pg-api-key').fill(key);
      expect(await page.getByRole('textbox', { name: 'Languages' }).inputValue()).toBe('eng');
      await page.getByLabel(/Image or PDF/).setInputFiles(path.join(dir, 'scan.png'));
      await page.getByRole('checkbox', { name: 'Include word details' }).click();
      await page.getByRole('button', { name: 'Send request' }).click();
      await page.locator('[data-testid="response-body"][data-state="success"]').waitFor({ timeout: 45_000 });
      const answer = JSON.parse((await responseBody(page).textContent())!) as { data: { text: string } };
      expect(answer.data.text).toContain('Page 1');
      watch.assertClean();
    } finally {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fits a phone screen', async () => {
    const email = await verifiedUser(server, 'Phoebe Phone', 'playground');
    const { page, watch, context } = await newPage(browser, viewports.phone);
    await signIn(page, server.url, email);
    await openPlayground(page, server.url);
    await endpoints(page)
      .getByRole('button', { name: /Watermark PDF/ })
      .click();
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByText('Enter an API key.').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, 'playground-phone');
    watch.assertClean();
    await context.close();
  });
});
