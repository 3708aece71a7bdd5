import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startServer, type E2eServer } from './support/server';
import { launchBrowser, newPage, viewports } from './support/browser';
import { accessTokenOf } from './support/api';
import { registerByApi, signIn, strongPassword, toastText, uniqueEmail } from './support/flows';

/** /settings: the profile, the password and the sessions, against the real API. */
describe('settings', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ env: { EMAIL_VERIFICATION: 'false' } }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('updates the profile', async () => {
    const email = uniqueEmail('profile');
    await registerByApi(server.url, { name: 'Profile User', email });
    const { page, watch, context } = await newPage(browser);
    await signIn(page, server.url, email);
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Profile Settings' }).click();
    await page.waitForURL(/\/settings$/);

    const profile = page.getByRole('form', { name: 'Profile' });
    await profile.getByLabel('Full name').fill('Renamed User');
    await profile.getByLabel('Company').fill('Acme');
    await profile.getByLabel('Country').selectOption('FR');
    await profile.getByLabel('Time zone').selectOption('Europe/Paris');
    await profile.getByLabel('Language').selectOption('fr');
    await profile.getByRole('button', { name: 'Save changes' }).click();
    // Français: the whole interface changes at once, without a reload.
    await toastText(page, 'Profil mis à jour avec succès');
    await page
      .getByRole('form', { name: 'Profil' })
      .getByRole('button', { name: 'Enregistrer les modifications' })
      .waitFor();
    await page.getByRole('link', { name: 'Clés API' }).first().waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    const [row] = await server.sql<Record<string, string>>(
      'SELECT name, company, country, timezone, language FROM users WHERE email = $1',
      [email],
    );
    expect(row).toEqual({
      name: 'Renamed User',
      company: 'Acme',
      country: 'FR',
      timezone: 'Europe/Paris',
      language: 'fr',
    });
    // The header follows the store.
    expect(await page.getByTestId('user-menu').textContent()).toContain('Renamed User');
    await page.reload();
    // The setting is the account's: still French after a reload.
    expect(await page.getByRole('form', { name: 'Profil' }).getByLabel('Nom complet').inputValue()).toBe(
      'Renamed User',
    );
    watch.assertClean();
    await context.close();
  });

  it('lists the sessions, marks this device, revokes one and then all the others', async () => {
    const email = uniqueEmail('sessions');
    await registerByApi(server.url, { name: 'Session User', email });
    const others = await Promise.all([newPage(browser), newPage(browser), newPage(browser)]);
    for (const o of others) await signIn(o.page, server.url, email);
    const { page, watch, context } = await newPage(browser);
    await signIn(page, server.url, email);
    await page.goto(`${server.url}/settings`);
    const rows = page.getByTestId('session-row');
    // The sign-up through the API opened one more session.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-row"]').length >= 4);
    const before = await rows.count();
    expect(await rows.filter({ hasText: 'This device' }).count()).toBe(1);
    expect(await rows.filter({ hasText: '127.0.0.1' }).count()).toBeGreaterThanOrEqual(4);

    await rows
      .filter({ hasNotText: 'This device' })
      .first()
      .getByRole('button', { name: /Revoke session/ })
      .click();
    await toastText(page, 'Session revoked successfully');
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="session-row"]').length === n,
      before - 1,
    );

    await page.getByRole('button', { name: 'Revoke all other sessions' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke sessions' }).click();
    await toastText(page, 'Sessions revoked successfully');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-row"]').length === 1);
    expect(await rows.first().textContent()).toContain('This device');
    watch.assertClean();
    await context.close();
    for (const o of others) await o.context.close();
  });

  it('the other browsers, after "Revoke all other sessions", say the session expired (not the raw refusal)', async () => {
    const email = uniqueEmail('revoked');
    await registerByApi(server.url, { name: 'Revoked Elsewhere', email });
    const clicking = await newPage(browser);
    const reloading = await newPage(browser);
    for (const other of [clicking, reloading]) {
      await signIn(other.page, server.url, email);
      await other.page.waitForLoadState('networkidle');
    }
    // This device, on a phone, with a few sessions to revoke: the scroll-to-top button covers none of their buttons.
    const { page, watch, context } = await newPage(browser, viewports.phone);
    for (let i = 0; i < 4; i += 1) await accessTokenOf(server.url, email, strongPassword);
    await signIn(page, server.url, email);
    await page.goto(`${server.url}/settings`);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-row"]').length >= 6);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.getByTestId('scroll-to-top').and(page.locator('[aria-hidden="false"]')).waitFor();
    const covered = await page.evaluate(() => {
      const top = document.querySelector('[data-testid="scroll-to-top"]')!.getBoundingClientRect();
      return [...document.querySelectorAll('[data-testid="session-row"] button')].filter((b) => {
        const r = b.getBoundingClientRect();
        return r.left < top.right && r.right > top.left && r.top < top.bottom && r.bottom > top.top;
      }).length;
    });
    expect(covered, 'session buttons under the scroll-to-top button').toBe(0);

    await page.getByRole('button', { name: 'Revoke all other sessions' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke sessions' }).click();
    await toastText(page, 'Sessions revoked successfully');

    const raw = 'Authentication required';
    // The first browser clicks on to another page: its call is refused, the refresh too.
    clicking.watch.expect(/\/api\/v1\/.*/, 401);
    await clicking.page
      .getByRole('navigation', { name: 'Main' })
      .first()
      .getByRole('link', { name: 'API Keys' })
      .click();
    await clicking.page.waitForURL(/\/login$/);
    await toastText(clicking.page, 'Session expired. Please sign in again.');
    expect(await clicking.page.locator('body').innerText()).not.toContain(raw);
    // The second reloads: the refresh cookie no longer opens a session.
    reloading.watch.expect(/\/api\/v1\/.*/, 401);
    await reloading.page.reload();
    await reloading.page.waitForURL(/\/login$/);
    await toastText(reloading.page, 'Session expired. Please sign in again.');
    await reloading.page.waitForLoadState('networkidle');
    expect(await reloading.page.locator('body').innerText()).not.toContain(raw);

    for (const p of [clicking, reloading, { watch, context }]) {
      p.watch.assertClean();
      await p.context.close();
    }
  });

  it('changes the password: a wrong current one is shown in the form, the right one succeeds', async () => {
    const email = uniqueEmail('chpw');
    await registerByApi(server.url, { name: 'Password User', email });
    const { page, watch, context } = await newPage(browser);
    await signIn(page, server.url, email);
    await page.goto(`${server.url}/settings`);
    const form = page.getByRole('form', { name: 'Change password' });
    watch.expect(/\/api\/v1\/auth\/change-password$/, 401);
    await form.getByLabel('Current password').fill('Wrong-Password-1');
    await form.getByLabel('New password', { exact: true }).fill('Fresh-Otter-55%');
    await form.getByLabel('Confirm new password').fill('Fresh-Otter-55%');
    await form.getByRole('button', { name: 'Update password' }).click();
    // Beside its field, in the server's words without the field's name in front.
    await form
      .getByRole('alert')
      .filter({ hasText: /^Current password is incorrect$/ })
      .waitFor();
    expect(await page.getByTestId('change-password-error').count()).toBe(0);
    // Still signed in: a wrong current password is not a session failure.
    expect(new URL(page.url()).pathname).toBe('/settings');

    await form.getByLabel('Current password').fill(strongPassword);
    await form.getByRole('button', { name: 'Update password' }).click();
    await toastText(page, 'Password changed successfully');
    expect(await form.getByLabel('Current password').inputValue()).toBe('');
    watch.assertClean();
    await context.close();

    const again = await newPage(browser);
    await signIn(again.page, server.url, email, 'Fresh-Otter-55%');
    again.watch.assertClean();
    await again.context.close();
  });
});
