import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type E2eServer } from './support/server';
import { launchBrowser, newPage } from './support/browser';
import { accessTokenOf, apiClient, dataOf } from './support/api';
import { signIn, signOut, toastText, verifiedUser } from './support/flows';

/**
 * Issue 29 in the browser: the figures the public pages quote are the enforced ones. An owner changes the Free plan's
 * monthly limit and bullets in Plan Management and the Pro limit through the API; the landing, the register side
 * panel, the Support FAQ (with the configured job-result retention) and the plans page show the new figures, and no
 * stale limit bullet. Then the Terms of Service and Privacy Policy pages, default and replaced by the operator.
 */

const owner = { email: 'owner@example.com', password: 'Owner-Pass-2024!', name: 'Olga Owner' };

const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).textContent()) ?? '').trim();

describe('public figures and legal pages', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ owner, env: { JOB_RESULT_TTL_HOURS: '48' } }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a limit edited in Plan Management shows on the landing, register, Support and plans pages', async () => {
    // Pro through the API, Free through the page.
    const admin = apiClient(server.url, { accessToken: await accessTokenOf(server.url, owner.email, owner.password) });
    dataOf(
      await admin.api.PUT('/api/v1/admin/plans/{name}', {
        params: { path: { name: 'pro' } },
        body: { maxRequestsPerMonth: 150_000 },
      }),
      'edit pro',
    );

    const { page, watch, context } = await newPage(browser);
    await signIn(page, server.url, owner.email, owner.password);
    await page.goto(`${server.url}/admin/plans`);
    const free = page.getByTestId('admin-plan-free');
    await free.getByRole('button', { name: /Edit/ }).click();
    await page.getByLabel('Requests / month').fill('1500');
    const bullets = page.getByLabel('Other bullets (one a line)');
    await bullets.fill('Community support\n1,000 requests per month');
    await page.getByRole('alert').filter({ hasText: 'states a limit' }).waitFor();
    expect(await page.getByRole('button', { name: 'Save plan' }).isDisabled()).toBe(true);
    await bullets.fill('Community support\nForum answers within a week');
    await page.getByRole('button', { name: 'Save plan' }).click();
    await toastText(page, 'Plan updated successfully!');
    const adminBullets = free.getByTestId('admin-plan-bullets');
    await adminBullets.getByText('1,500 requests/month').waitFor();
    expect(await adminBullets.textContent()).toContain('Forum answers within a week');
    await signOut(page);

    // The landing: the hero's small print and the Free pricing card.
    await page.goto(server.url);
    await page
      .getByTestId('hero-offer')
      .getByText(/^1,500 free API calls a month/)
      .waitFor();
    expect(await text(page, 'hero-offer')).toBe('1,500 free API calls a month · 14-day trial · No credit card');
    const freeCard = page.getByRole('article', { name: 'Free plan' });
    await freeCard.getByText('1,500 requests/month').waitFor();
    expect(await freeCard.textContent()).toContain('Forum answers within a week');
    expect(await freeCard.textContent()).not.toContain('1,000');
    expect(await page.getByRole('article', { name: 'Pro plan' }).textContent()).toContain('150,000 requests/month');

    // The register side panel.
    await page.goto(`${server.url}/register`);
    const panel = page.getByRole('list', { name: 'Free trial' });
    await panel.getByText('1,500 API calls a month on the Free plan').waitFor();
    expect(await panel.textContent()).toContain('14-day free trial of Pro');

    // The Support FAQ: plans and the job-result retention (JOB_RESULT_TTL_HOURS=48).
    await page.goto(`${server.url}/support`);
    // The answers open as a reader opens them: a click on the question.
    await page.getByText('How many requests does each plan include?').click();
    await page.getByText('Are my documents stored?').click();
    await page
      .getByTestId('faq-answer-plans')
      .getByText(/Pro includes 150,000/)
      .waitFor();
    const plansAnswer = await text(page, 'faq-answer-plans');
    expect(plansAnswer).toContain('Free includes 1,500 requests a month');
    expect(plansAnswer).toContain('Enterprise includes 1,000,000 requests a month');
    expect(plansAnswer).not.toMatch(/(^|[^\d,])50,000 requests|500,000\+/);
    await page
      .getByTestId('faq-answer-storage')
      .getByText(/kept for 2 days/)
      .waitFor();

    // The plans page of a signed-in user: the Free card's bullets follow the limit.
    const email = await verifiedUser(server, 'Paul Plans', 'plans');
    await signIn(page, server.url, email);
    await page.goto(`${server.url}/plans`);
    const features = page.getByRole('list', { name: 'Free features' });
    await features.getByText('1,500 requests/month').waitFor();
    const lines = await features.getByRole('listitem').allTextContents();
    expect(lines.map((l) => l.trim())).toContain('Forum answers within a week');
    expect(lines.join('|')).not.toContain('1,000 requests');
    watch.assertClean();
    await context.close();
  });

  it('Terms of Service and Privacy Policy: real pages, the neutral default until the operator writes theirs', async () => {
    const { page, watch, context } = await newPage(browser);
    await page.goto(`${server.url}/register`);
    await page.getByRole('link', { name: 'Terms of Service' }).click();
    await page.waitForURL((u) => u.pathname === '/terms');
    await page.getByRole('heading', { name: 'Terms of Service', level: 1 }).waitFor();
    expect(await page.getByTestId('legal-text').getAttribute('data-source')).toBe('default');

    writeFileSync(
      path.join(server.dataDir, 'terms.md'),
      '# Acme Documents terms\n\nInvoices are due in 30 days.\n\n<script>window.pwned = true</script>\n',
    );
    await page.reload();
    await page.getByRole('heading', { name: 'Acme Documents terms', level: 1 }).waitFor();
    expect(await page.getByTestId('legal-text').getAttribute('data-source')).toBe('operator');
    expect(await page.getByText('Invoices are due in 30 days.').count()).toBe(1);
    // Raw HTML in the operator's file is shown as text, never run.
    expect(await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned)).toBeUndefined();

    await page.goto(`${server.url}/`);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
    await page.waitForURL((u) => u.pathname === '/privacy');
    await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor();
    expect(await page.getByTestId('legal-text').textContent()).toContain('temporary folder');
    watch.assertClean();
    await context.close();
  });
});
