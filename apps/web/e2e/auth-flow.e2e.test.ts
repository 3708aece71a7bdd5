import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startServer, waitForLink, type E2eServer } from './support/server';
import { apiClient, verifyByLink } from './support/api';
import { launchBrowser, newPage } from './support/browser';
import { registerByApi, signIn, signOut, strongPassword, toastText, uniqueEmail } from './support/flows';

/** Sign-up to dashboard, sign in and out, the failure and validation messages, and the password reset. */
describe('accounts in the browser', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('signs up, verifies the e-mail from the mail link, counts down and lands on the dashboard', async () => {
    const { page, watch, context } = await newPage(browser);
    const email = uniqueEmail('signup');
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: 'Get Started', exact: true }).first().click();
    await page.waitForURL(/\/register$/);

    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Company').fill('Analytical Engines');
    await page.getByLabel('Password', { exact: true }).fill(strongPassword);
    // The live strength meter asks the server (debounced).
    await page
      .getByTestId('password-strength-label')
      .filter({ hasText: /\(\d\/4\)/ })
      .waitFor();
    await page.getByLabel('Confirm password').fill(strongPassword);
    await page.getByRole('checkbox', { name: /I agree/ }).click();
    await page.getByRole('button', { name: 'Create Account' }).click();

    await page.waitForURL(/\/check-email$/);
    await toastText(page, 'Account created! Check your email to activate it.');
    await page.getByText(email).waitFor();

    // Resend really calls the API and shows 'Sending...' for at least 2 s.
    const resend = page.getByRole('button', { name: /Resend Verification Email|Sending\.\.\./ });
    const started = Date.now();
    const call = page.waitForRequest(
      (r) => r.url().endsWith('/api/v1/auth/resend-verification') && r.method() === 'POST',
    );
    watch.expect(/\/api\/v1\/auth\/resend-verification$/, 429);
    await resend.click();
    expect(JSON.parse((await call).postData() ?? '{}')).toEqual({ email });
    await page.getByRole('button', { name: 'Sending...' }).waitFor();
    await page.getByRole('button', { name: 'Resend Verification Email' }).waitFor();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    // The sign-up mailed the link a moment ago: the server says how long to wait, the page counts it down.
    const waitNote = page.getByTestId('resend-wait');
    const left = Number(/in (\d+) seconds/.exec(await waitNote.innerText())?.[1]);
    expect(left).toBeGreaterThan(40);
    expect(left).toBeLessThanOrEqual(60);
    expect(await page.getByRole('button', { name: 'Resend Verification Email' }).isDisabled()).toBe(true);
    await page.waitForFunction((first) => {
      const m = /in (\d+) seconds/.exec(document.querySelector('[data-testid="resend-wait"]')?.textContent ?? '');
      return m && Number(m[1]) < first;
    }, left);
    expect(await page.locator('[data-sonner-toast]', { hasText: 'Verification email sent again' }).count()).toBe(0);

    const link = await waitForLink(server.dataDir, email, '/verify-email');
    expect(link.startsWith(`${server.url}/verify-email?token=`)).toBe(true);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Email verified!' }).waitFor();
    await toastText(page, 'Email verified successfully');
    const countdown = page.getByTestId('verify-countdown');
    const first = Number(/(\d+)/.exec((await countdown.textContent()) ?? '')?.[1]);
    expect(first).toBeGreaterThanOrEqual(4);
    expect(first).toBeLessThanOrEqual(5);
    await page.waitForFunction(() =>
      /in 2 seconds/.test(document.querySelector('[data-testid="verify-countdown"]')?.textContent ?? ''),
    );
    await page.waitForURL(/\/dashboard$/);
    expect(await page.getByTestId('shell-title').textContent()).toBe('Dashboard');
    expect(await page.getByTestId('role-label').textContent()).toBe('user');

    // The persisted store holds isAuthenticated and user: no access token and no refresh token.
    const stored = await page.evaluate(() => ({
      store: localStorage.getItem('auth-store'),
      refresh: localStorage.getItem('refresh_token'),
    }));
    const state = JSON.parse(stored.store ?? '{}').state;
    expect(Object.keys(state).sort()).toEqual(['isAuthenticated', 'user']);
    expect(state.user.email).toBe(email);
    expect(state.user.emailVerified).toBe(true);
    expect(stored.refresh).toBeNull();
    expect(stored.store).not.toContain('refreshToken');

    watch.assertClean();
    await context.close();
  });

  it('signs in and out', async () => {
    const email = uniqueEmail('login');
    await registerByApi(server.url, { name: 'Grace Hopper', email });
    await verifyByLink(server.url, await waitForLink(server.dataDir, email, '/verify-email'));

    const { page, watch, context } = await newPage(browser);
    await signIn(page, server.url, email);
    await toastText(page, 'Signed in successfully!');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Grace');

    await signOut(page);
    await toastText(page, 'Signed out successfully');
    // Signed out for real: the application pages send back to /login.
    await page.goto(`${server.url}/dashboard`);
    await page.waitForURL(/\/login$/);
    watch.assertClean();
    await context.close();
  });

  it("shows the server's message for a wrong password and stays on /login", async () => {
    const email = uniqueEmail('wrongpw');
    await registerByApi(server.url, { name: 'Alan Turing', email });
    const { page, watch, context } = await newPage(browser);
    watch.expect(/\/api\/v1\/auth\/login$/, 401);

    // What the server says to a failed sign-in (an unknown address gets the same answer as a wrong password).
    const probe = await apiClient(server.url).api.POST('/api/v1/auth/login', {
      body: { email: uniqueEmail('nobody'), password: 'whatever-123' },
    });
    expect(probe.response.status).toBe(401);
    const serverError = probe.error?.error;
    expect(serverError).toBeTruthy();

    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Not-The-Password-1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    const alert = page.getByTestId('login-error');
    await alert.waitFor();
    expect((await alert.textContent())?.trim()).toBe(serverError);
    expect(new URL(page.url()).pathname).toBe('/login');
    watch.assertClean();
    await context.close();
  });

  it('shows the validation messages of the register form', async () => {
    const { page, watch, context } = await newPage(browser);
    await page.goto(`${server.url}/register`);
    await page.getByRole('button', { name: 'Create Account' }).click();
    for (const text of [
      'Full name is required',
      'Email is required',
      'Password is required',
      'Please accept the terms and conditions',
    ]) {
      await page.getByText(text, { exact: true }).waitFor();
    }
    await page.getByLabel('Full name').fill('Katherine Johnson');
    await page.getByLabel('Email address').fill('katherine@example.com');
    await page.getByLabel('Password', { exact: true }).fill(strongPassword);
    await page.getByLabel('Confirm password').fill(`${strongPassword}x`);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Passwords do not match', { exact: true }).waitFor();
    await page.getByText('Please accept the terms and conditions', { exact: true }).waitFor();
    expect(await page.getByText('Full name is required').count()).toBe(0);
    // Nothing was sent: still on /register.
    expect(new URL(page.url()).pathname).toBe('/register');
    watch.assertClean();
    await context.close();
  });

  it('resets a forgotten password from the mail link and signs in with the new one', async () => {
    const email = uniqueEmail('reset');
    await registerByApi(server.url, { name: 'Hedy Lamarr', email });
    const { page, watch, context } = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/forgot-password$/);
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await toastText(page, 'Reset email sent');
    await page.getByTestId('forgot-password-sent').waitFor();

    const link = await waitForLink(server.dataDir, email, '/reset-password');
    await page.goto(link);
    const newPassword = 'Brave-Walrus-77?';
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.waitForURL(/\/dashboard$/);
    await toastText(page, 'Password reset successfully');

    await signOut(page);
    await signIn(page, server.url, email, newPassword);
    watch.assertClean();
    await context.close();
  });
});
