import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import { startServer, waitForLink, type E2eServer } from './support/server';
import { verifyByLink } from './support/api';
import { launchBrowser, newPage, screenshot, viewports } from './support/browser';
import { registerByApi, signIn, uniqueEmail } from './support/flows';

/**
 * Every page at desktop (1280×800) and phone (390×844) width, saved to e2e/artifacts/ (gitignored) for review.
 * Each page must show what it is for (its heading, the values it lists), render without a browser error and without
 * horizontal overflow on a phone: a blank or wrong page with a clean console fails.
 */
describe('screenshots', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const [size, viewport] of Object.entries(viewports)) {
    it(`captures every page at ${size} width`, async () => {
      const { page, watch, context } = await newPage(browser, viewport);
      const noOverflow = async (name: string) => {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${name} overflows horizontally by ${overflow}px`).toBeLessThanOrEqual(0);
      };
      /** The visible text of the one element a locator finds (waiting for it to be visible). */
      const shown = async (locator: Locator) => {
        await locator.waitFor();
        return (await locator.innerText()).replace(/\s+/g, ' ').trim();
      };
      const h1 = () => shown(page.getByRole('heading', { level: 1 }));
      const shot = async (name: string) => {
        await page.waitForLoadState('networkidle');
        await noOverflow(name);
        await screenshot(page, `${name}-${size}`);
      };

      await page.goto(`${server.url}/`);
      expect(await h1()).toBe('The document API developers enjoy');
      expect(await page.title()).toMatch(/DocFlow/);
      await shot('landing');
      if (size === 'phone') {
        await page.getByRole('button', { name: 'Open menu' }).click();
        const menu = await shown(page.locator('#landing-mobile-menu'));
        for (const item of ['Features', 'Pricing', 'Sign In']) expect(menu).toContain(item);
        await page.screenshot({ path: `${(await import('./support/browser')).artifactsDir}/landing-menu-phone.png` });
        await page.getByRole('button', { name: 'Close menu' }).click();
      }

      await page.goto(`${server.url}/login`);
      await page.getByRole('button', { name: 'Sign In' }).waitFor();
      expect(await h1()).toBe('Welcome back');
      expect(await page.getByLabel('Email address').isVisible()).toBe(true);
      await shot('login');

      await page.goto(`${server.url}/register`);
      await page.getByLabel('Password', { exact: true }).fill('Sunny-Kettle-42!');
      await page
        .getByTestId('password-strength-label')
        .filter({ hasText: /\(\d\/4\)/ })
        .waitFor();
      await page.getByRole('button', { name: 'Create Account' }).click();
      await page.getByText('Please accept the terms and conditions').waitFor();
      expect(await h1()).toBe('Create your account');
      await shot('register');

      // A real account waiting for verification, then its link.
      const email = uniqueEmail(`shot-${size}`);
      await page.goto(`${server.url}/register`);
      await page.getByLabel('Full name').fill('Screen Shot');
      await page.getByLabel('Email address').fill(email);
      await page.getByLabel('Password', { exact: true }).fill('Sunny-Kettle-42!');
      await page.getByLabel('Confirm password').fill('Sunny-Kettle-42!');
      await page.getByRole('checkbox', { name: /I agree/ }).click();
      await page.getByRole('button', { name: 'Create Account' }).click();
      await page.waitForURL(/\/check-email$/);
      expect(await h1()).toBe('Check your email');
      expect(await shown(page.getByText(email))).toBe(email);
      await shot('check-email');

      const link = await waitForLink(server.dataDir, email, '/verify-email');
      await page.goto(link);
      await page.getByRole('heading', { name: 'Email verified!' }).waitFor();
      expect(await shown(page.getByText('Your account is active.'))).toBe(
        'Your account is active. Welcome to DocFlow.',
      );
      await shot('verify-email');
      // The verification page with a bad token: the API answers 400 on purpose.
      watch.expect(/\/api\/v1\/auth\/verify-email\?token=not-a-real-token$/, 400);
      await page.goto(`${server.url}/verify-email?token=not-a-real-token`);
      await page.getByRole('heading', { name: 'Verification failed' }).waitFor();
      expect(await shown(page.getByTestId('verify-error'))).not.toBe('');
      await shot('verify-email-error');

      // Signed in by the verification: the shell.
      await page.goto(`${server.url}/dashboard`);
      expect(await shown(page.getByTestId('shell-title'))).toBe('Dashboard');
      await shot('dashboard');
      if (size === 'phone') {
        await page.getByRole('button', { name: 'Open navigation' }).click();
        const nav = await shown(page.getByRole('dialog'));
        for (const item of ['Dashboard', 'Settings']) expect(nav).toContain(item);
        await screenshot(page, 'dashboard-nav-phone');
        await page.getByRole('button', { name: 'Close navigation' }).click();
      } else {
        await page.getByTestId('user-menu').click();
        expect(await shown(page.getByRole('menu'))).toContain('Profile Settings');
        await screenshot(page, 'user-menu-desktop');
        await page.keyboard.press('Escape');
      }

      await page.goto(`${server.url}/settings`);
      // The one session there is: this browser's, marked as such.
      expect(await shown(page.getByTestId('session-row').first())).toContain('This device');
      expect(await h1()).toBe('Settings');
      await shot('settings');

      await page.goto(`${server.url}/support`);
      expect(await shown(page.getByRole('heading', { name: 'How can we help?' }))).toBe('How can we help?');
      await shot('support');

      // Unknown path while signed in → /dashboard; signed out → /.
      await page.goto(`${server.url}/this/does/not/exist`);
      await page.waitForURL(/\/dashboard$/);
      await page.getByTestId('shell-title').waitFor();
      // Signed out with no page open: a live dashboard would see its next call refused (401) and log that.
      await page.evaluate(() => localStorage.clear());
      await page.goto('about:blank');
      await context.clearCookies();
      await page.goto(`${server.url}/this/does/not/exist`);
      await page.waitForURL((u) => u.pathname === '/');
      expect(await h1()).toBe('The document API developers enjoy');
      await shot('404-redirect');

      await page.goto(`${server.url}/forgot-password`);
      expect(await h1()).toBe('Forgot your password?');
      expect(await page.getByLabel('Email address').isVisible()).toBe(true);
      await shot('forgot-password');
      await page.goto(`${server.url}/reset-password?token=x`);
      expect(await h1()).toBe('Choose a new password');
      await shot('reset-password');

      watch.assertClean();
      await context.close();
    });
  }

  it('renders the support page for a signed-in user with the playground link', async () => {
    const email = uniqueEmail('support');
    await registerByApi(server.url, { name: 'Support User', email });
    await verifyByLink(server.url, await waitForLink(server.dataDir, email, '/verify-email'));
    const { page, watch, context } = await newPage(browser);
    await signIn(page, server.url, email);
    await page.goto(`${server.url}/support`);
    await page.getByRole('heading', { name: 'How can we help?' }).waitFor();
    await page.getByRole('link', { name: 'Open Playground' }).click();
    await page.waitForURL(/\/playground$/);
    await page.getByRole('heading', { level: 1, name: 'API Playground' }).waitFor();
    watch.assertClean();
    await context.close();
  });
});
