import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type E2eServer } from './support/server';
import { launchBrowser, newPage } from './support/browser';
import { registerByApi, signIn, strongPassword, toastText, uniqueEmail } from './support/flows';

const owner = { email: 'owner@example.com', password: 'Owner-Pass-2024!' };

/**
 * Where the app ends up after opening `path`. Gates redirect on the client once the session is known, which on a
 * loaded machine can come late (over 5 s in CI, two e2e files at once): wait (up to 15 s) for the expected path
 * before reading it. A page expected to stay where it is is read once the network went idle (its session call
 * answered), so that a wrong redirect is seen.
 */
async function landOn(page: Page, base: string, path: string, expected: string): Promise<string> {
  await page.goto(`${base}${path}`);
  if (expected === path) await page.waitForLoadState('networkidle');
  await page.waitForURL((u) => u.pathname === expected, { timeout: 15_000 }).catch(() => undefined);
  return new URL(page.url()).pathname;
}

/** The route gates of spec-1 §2 for visitors, users and admins; notifications; the session's end. */
describe('route gates, shell and session', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    // Verification off: accounts made through the API can sign in at once.
    [server, browser] = await Promise.all([
      startServer({ owner, env: { EMAIL_VERIFICATION: 'false' } }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('sends visitors to /login from the application pages and to / from unknown paths', async () => {
    const { page, watch, context } = await newPage(browser);
    for (const path of [
      '/dashboard',
      '/keys',
      '/analytics',
      '/playground',
      '/plans',
      '/settings',
      '/admin/users',
      '/admin/system-monitor',
      '/admin/monitor',
      '/admin/settings',
    ]) {
      expect(await landOn(page, server.url, path, '/login'), path).toBe('/login');
    }
    expect(await landOn(page, server.url, '/no/such/page', '/')).toBe('/');
    await page.getByRole('heading', { level: 1, name: /document API/ }).waitFor();
    for (const path of [
      '/',
      '/login',
      '/register',
      '/support',
      '/check-email',
      '/verify-email',
      '/forgot-password',
      '/reset-password',
    ]) {
      expect(await landOn(page, server.url, path, path), path).toBe(path);
    }
    // The no-token state of the verification page.
    await page.goto(`${server.url}/verify-email`);
    await page
      .getByText(
        'The verification link is invalid or missing. Please check your email or request a new verification link.',
      )
      .waitFor();
    await page.getByText('Make sure to click the complete link received in your email.').waitFor();
    await page.getByRole('button', { name: 'Create New Account' }).click();
    await page.waitForURL(/\/register$/);
    watch.assertClean();
    await context.close();
  });

  it('keeps plain users out of the admin pages and away from the visitor pages', async () => {
    const email = uniqueEmail('gate-user');
    await registerByApi(server.url, { name: 'Plain User', email });
    const { page, watch, context } = await newPage(browser);
    await signIn(page, server.url, email);
    expect(await page.getByTestId('shell-title').textContent()).toBe('Dashboard');
    expect(await page.getByTestId('role-label').textContent()).toBe('user');
    const nav = page.getByRole('navigation', { name: 'Main' }).first();
    for (const name of [
      'Dashboard',
      'API Keys',
      'Analytics',
      'Playground',
      'Plans',
      'Settings',
      'Support',
      'API Docs',
    ]) {
      expect(await nav.getByRole('link', { name }).count(), name).toBe(1);
    }
    for (const name of ['Users', 'System Monitor', 'Plan Management', 'Audit Log'])
      expect(await nav.getByRole('link', { name }).count(), name).toBe(0);
    expect(await nav.getByRole('link', { name: 'API Docs' }).getAttribute('target')).toBe('_blank');

    for (const path of ['/', '/login', '/register', '/nope']) {
      expect(await landOn(page, server.url, path, '/dashboard'), path).toBe('/dashboard');
    }
    // The admin pages stay where they are and show their restricted view (the server refuses their calls anyway).
    for (const path of ['/admin/users', '/admin/system-monitor', '/admin/monitor', '/admin/plans']) {
      expect(await landOn(page, server.url, path, path), path).toBe(path);
    }
    expect(await landOn(page, server.url, '/admin/settings', '/admin/plans')).toBe('/admin/plans');
    for (const path of ['/keys', '/analytics', '/playground', '/plans', '/settings', '/support']) {
      expect(await landOn(page, server.url, path, path), path).toBe(path);
    }
    watch.assertClean();
    await context.close();
  });

  it('lets admin, super_admin and owner into the admin pages, titled Admin Dashboard', async () => {
    const email = uniqueEmail('gate-admin');
    await registerByApi(server.url, { name: 'Super Admin', email });
    await server.sql(`UPDATE users SET role = 'super_admin' WHERE email = $1`, [email]);
    for (const who of [
      { email, password: strongPassword, role: 'super admin' },
      { email: owner.email, password: owner.password, role: 'owner' },
    ]) {
      const { page, watch, context } = await newPage(browser);
      await signIn(page, server.url, who.email, who.password);
      expect(await page.getByTestId('shell-title').textContent()).toBe('Admin Dashboard');
      expect(await page.getByTestId('role-label').textContent()).toBe(who.role);
      const nav = page.getByRole('navigation', { name: 'Main' }).first();
      for (const name of ['Users', 'System Monitor', 'Plan Management', 'Audit Log'])
        expect(await nav.getByRole('link', { name }).count(), name).toBe(1);
      for (const path of ['/admin/users', '/admin/system-monitor', '/admin/monitor', '/admin/plans']) {
        expect(await landOn(page, server.url, path, path), path).toBe(path);
      }
      await nav.getByRole('link', { name: 'Users' }).click();
      await page.waitForURL(/\/admin\/users$/);
      watch.assertClean();
      await context.close();
    }
    // A plain `admin` too.
    await server.sql(`UPDATE users SET role = 'admin' WHERE email = $1`, [email]);
    const { page, watch, context } = await newPage(browser);
    await signIn(page, server.url, email);
    expect(await page.getByTestId('role-label').textContent()).toBe('admin');
    expect(await landOn(page, server.url, '/admin/settings', '/admin/plans')).toBe('/admin/plans');
    watch.assertClean();
    await context.close();
  });

  it('shows notifications with an unread badge, marks one and then all as read', async () => {
    const email = uniqueEmail('notify');
    await registerByApi(server.url, { name: 'Notified User', email });
    const [user] = await server.sql<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]);
    const id = user!.id;
    for (const [i, type] of (['info', 'success', 'warning'] as const).entries()) {
      await server.sql(
        `INSERT INTO notifications (user_id, type, title, message, created_at) VALUES ($1, $2, $3, $4, now() - ($5 || ' minutes')::interval)`,
        [id, type, `Title ${i}`, `Message number ${i}`, String(i * 5)],
      );
    }
    const { page, watch, context } = await newPage(browser);
    await signIn(page, server.url, email);
    const badge = page.getByTestId('notifications-badge');
    await badge.waitFor();
    const initial = Number(await badge.textContent());
    expect(initial).toBeGreaterThanOrEqual(3);
    await page.getByTestId('notifications-bell').click();
    const item = page.getByTestId('notification-item').filter({ hasText: 'Title 1' });
    await item.click();
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid="notifications-badge"]')?.textContent === String(n),
      initial - 1,
    );
    expect(await item.getAttribute('data-read')).toBe('true');
    await page.getByRole('menuitem', { name: 'Mark all as read' }).click();
    await toastText(page, 'All notifications were marked as read');
    expect(await page.getByTestId('notifications-badge').count()).toBe(0);
    const [counted] = await server.sql<{ unread: number }>(
      'SELECT count(*)::int AS unread FROM notifications WHERE user_id = $1 AND read_at IS NULL',
      [id],
    );
    expect(counted?.unread).toBe(0);
    watch.assertClean();
    await context.close();
  });

  it('keeps no token where a script can read it: a reload gets a new access token from the httpOnly cookie', async () => {
    const email = uniqueEmail('refresh');
    await registerByApi(server.url, { name: 'Refresh User', email });
    const { page, watch, context } = await newPage(browser);
    await signIn(page, server.url, email);
    const stored = await page.evaluate(
      () => JSON.stringify(localStorage) + JSON.stringify(sessionStorage) + document.cookie,
    );
    expect(stored).not.toMatch(/token"?\s*:\s*"ey|df_refresh/); // no access token stored, the refresh cookie not readable
    const refreshes: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/v1/auth/refresh')) refreshes.push(r.postData() ?? '');
    });
    await page.reload();
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    expect(refreshes).toEqual(['{}']); // one refresh, with an empty body: the cookie carries the token
    expect(await page.locator('[data-sonner-toast]', { hasText: 'Session expired' }).count()).toBe(0);
    watch.assertClean();
    await context.close();
  });

  it('logs out with the session-expired toast when the session was revoked on the server', async () => {
    const email = uniqueEmail('expire');
    await registerByApi(server.url, { name: 'Expiring User', email });
    const { page, watch, context } = await newPage(browser);
    await signIn(page, server.url, email);
    // The dashboard's own first calls answered before the revocation: the click below makes the first refused call.
    await page.waitForLoadState('networkidle');
    await server.sql(
      `UPDATE sessions SET revoked_at = now(), revoked_reason = 'test' WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [email],
    );
    watch.expect(/\/api\/v1\/auth\/sessions$/, 401);
    watch.expect(/\/api\/v1\/signing-certificates$/, 401);
    watch.expect(/\/api\/v1\/auth\/refresh$/, 401);
    // A client-side navigation to a page that calls the API.
    await page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name: 'Settings' }).click();
    await toastText(page, 'Session expired. Please sign in again.');
    await page.waitForURL(/\/login$/);
    const state = await page.evaluate(() => JSON.parse(localStorage.getItem('auth-store')!).state);
    expect(state).toEqual({ isAuthenticated: false, user: null });
    watch.assertClean();
    await context.close();
  });
});
