import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type E2eServer } from './support/server';
import { launchBrowser, newPage, viewports } from './support/browser';
import { accessTokenOf, apiClient, dataOf } from './support/api';
import { signIn, strongPassword, verifiedUser } from './support/flows';

/**
 * Issue 29, "every figure is the enforced one": 10 calls of which 3 refused, then the dashboard banner, its plan card,
 * the key card and Analytics read off the real pages: 10 made, 7 counted against the quota, 3 not counted, everywhere.
 */

const figure = async (page: Page, testId: string): Promise<string> =>
  ((await page.getByTestId(testId).first().textContent()) ?? '').trim();

/** Reload until the figure reads `want`: usage is metered in batches (about every second). */
async function until(page: Page, testId: string, want: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const el = page.getByTestId(testId).first();
    await el.waitFor();
    if (((await el.textContent()) ?? '').trim() === want) return;
    if (Date.now() > deadline) throw new Error(`${testId} never read ${want}`);
    await page.waitForTimeout(700);
    await page.reload();
  }
}

describe('the month figures agree across pages', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('after 7 counted and 3 refused calls: dashboard, plan card, key card and analytics read 10 / 7 / 3', async () => {
    const email = await verifiedUser(server, 'Fiona Figures', 'figures');
    const dashboardApi = apiClient(server.url, { accessToken: await accessTokenOf(server.url, email, strongPassword) });
    const made = dataOf(
      await dashboardApi.api.POST('/api/v1/my/api-keys', { body: { name: 'Counting key', planName: 'free' } }),
      'create key',
    ).apiKey;
    const call = (path: string, method = 'GET') =>
      fetch(`${server.url}/api/v1${path}`, { method, headers: { 'x-api-key': made.key! } });
    for (let i = 0; i < 7; i++) expect((await call('/ping')).status).toBe(200);
    // The Free plan has no PDF operations: refused by the plan, before anything runs, and not counted.
    for (let i = 0; i < 3; i++) expect((await call('/pdf/merge', 'POST')).status).toBe(403);

    const { page, watch } = await newPage(browser, viewports.desktop);
    await signIn(page, server.url, email);

    // Dashboard: the banner and the plan card.
    await until(page, 'banner-calls-made', '10');
    expect(await figure(page, 'banner-calls-counted')).toBe('7');
    expect(await figure(page, 'banner-month-calls-not-counted')).toBe('3');
    expect(await page.getByText('Calls made this month', { exact: true }).count()).toBe(1);
    expect(await page.getByText('Counted against the quota', { exact: true }).count()).toBe(1);
    await page.getByTestId('plan-card-counted').waitFor();
    expect(await figure(page, 'plan-card-counted')).toBe('7 / 1,000');
    expect(await figure(page, 'plan-card-calls-made')).toBe('10');
    expect(await figure(page, 'plan-card-calls-not-counted')).toBe('3');

    // The key card.
    await page.goto(`${server.url}/keys`);
    await page.getByTestId(`key-calls-${made.id}-made`).waitFor();
    expect(await figure(page, `key-calls-${made.id}-made`)).toBe('10');
    expect(await figure(page, `key-calls-${made.id}-counted`)).toBe('7');
    expect(await figure(page, `key-calls-${made.id}-not-counted`)).toBe('3');
    const bar = page.getByRole('progressbar', { name: 'Counted against the quota this month' });
    expect(await bar.count()).toBe(1);

    // Analytics: calls made over the period, and the month's counted calls against the plan.
    await page.goto(`${server.url}/analytics`);
    await page.getByTestId('analytics-calls-made').waitFor();
    expect(await figure(page, 'analytics-calls-made')).toBe('10');
    expect(await figure(page, 'analytics-calls-counted')).toBe('7');
    expect(await figure(page, 'analytics-calls-not-counted')).toBe('3');
    await page.getByText('7 of 1,000 counted against the quota this month').waitFor();
    const callsCard = page.getByTestId('stat-card').filter({ hasText: 'Calls made' });
    expect(await callsCard.textContent()).toContain('10');
    watch.assertClean();
  });
});
