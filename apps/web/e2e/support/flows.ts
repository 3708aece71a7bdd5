import type { Page } from 'playwright-core';
import { apiClient, verifyByLink } from './api';
import { waitForLink, type E2eServer } from './server';

export const strongPassword = 'Sunny-Kettle-42!';

let counter = 0;
/** A fresh address per call, unique across runs. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}@example.com`;
}

/** Create an account straight through the API (no browser). */
export async function registerByApi(
  baseUrl: string,
  user: { name: string; email: string; password?: string },
): Promise<Response> {
  const password = user.password ?? strongPassword;
  const { response, error } = await apiClient(baseUrl).api.POST('/api/v1/auth/register', {
    body: { name: user.name, email: user.email, password, confirmPassword: password, acceptTerms: true },
  });
  if (response.status !== 201) throw new Error(`register ${user.email}: ${response.status} ${JSON.stringify(error)}`);
  return response;
}

/** A signed-up user whose e-mail is verified through the link of the .eml in the outbox; answers the address. */
export async function verifiedUser(server: E2eServer, name: string, prefix = 'user'): Promise<string> {
  const email = uniqueEmail(prefix);
  await registerByApi(server.url, { name, email });
  await verifyByLink(server.url, await waitForLink(server.dataDir, email, '/verify-email'));
  return email;
}

/** Sign in through the login form and wait for the dashboard. */
export async function signIn(page: Page, baseUrl: string, email: string, password = strongPassword): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(/\/dashboard$/);
  await page.getByTestId('shell-title').waitFor();
}

export async function signOut(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await page.waitForURL(/\/login$/);
}

/** The text of the toast list (sonner). */
export async function toastText(page: Page, text: string): Promise<void> {
  await page.locator('[data-sonner-toast]', { hasText: text }).first().waitFor();
}
