import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type E2eServer } from './support/server';
import { launchBrowser, screenshot } from './support/browser';
import { accessTokenOf, apiClient, dataOf } from './support/api';
import { registerByApi, strongPassword, uniqueEmail, verifiedUser } from './support/flows';
import { layoutProblems, text, type Lang } from './support/layout';

/**
 * Every route, as a visitor, a user and an administrator, at a phone's width (390×844) and a desktop's (1440×900),
 * in English and in French: each page shows its heading and what it is for in the browser's language, and nothing is
 * wider than the window or its card (support/layout.ts). Full-page screenshots go to e2e/artifacts/layout-*.png: of a
 * page that failed or did not fit, and of every page with E2E_SCREENSHOTS=1.
 */

const owner = { email: 'owner@example.com', password: strongPassword, name: 'Olive Owner' };
const sizes = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1440, height: 900 },
} as const;
const locales: Record<Lang, string> = { en: 'en-GB', fr: 'fr-FR' };

interface Visit {
  path: string;
  /** Where the page lands when the route redirects. */
  landsOn?: string;
  /** The catalogue key of the page's one h1 (placeholders filled by `values`). */
  h1?: string;
  values?: Record<string, string>;
  /** Catalogue keys of texts the page must show besides its heading. */
  texts?: string[];
  /** Test ids the page must show (its content, not only its frame). */
  testIds?: string[];
  /** Literal values the page must show (an e-mail, a key name). */
  literals?: string[];
  /** A further check of what the page shows. */
  shows?: (page: Page) => Promise<void>;
  /** Served by the API, not the dashboard (the API reference): its language is not the catalogues'. */
  notDashboard?: boolean;
}

/**
 * The API reference: Swagger UI lists the operations (its own words, in English). It renders the whole OpenAPI
 * document (about 800 kB) in the browser, which takes tens of seconds on a busy machine.
 */
async function apiReferenceShown(page: Page): Promise<void> {
  await page.locator('.swagger-ui .opblock').first().waitFor({ timeout: 120_000 });
  expect(await page.locator('.swagger-ui .opblock').count()).toBeGreaterThan(50);
}

/** Every key card ends its masked key with the secret's last four characters, and no two cards show the same. */
async function keysToldApart(page: Page): Promise<void> {
  const masked = await page.getByTestId('key-masked').allInnerTexts();
  for (const m of masked) expect(m).toMatch(/^dfk_\w{4}•+[A-Za-z0-9_-]{4}$/);
  expect(new Set(masked).size).toBe(masked.length);
}

const visitorPages: Visit[] = [
  { path: '/', h1: 'hero.theDocumentApi', texts: ['hero.getStartedFree'] },
  { path: '/login', h1: 'login.welcomeBack', texts: ['login.signInToManageYour'] },
  { path: '/register', h1: 'register.createYourAccount', texts: ['register.getAnApiKeyAnd'] },
  { path: '/check-email', h1: 'checkEmail.checkYourEmail', texts: ['checkEmail.yourEmailAddress'] },
  { path: '/verify-email', h1: 'verifyEmail.invalidVerificationLink' },
  { path: '/forgot-password', h1: 'forgotPassword.forgotYourPassword' },
  { path: '/reset-password', h1: 'resetPassword.invalidResetLink', texts: ['resetPassword.requestANewLink'] },
  { path: '/reset-password?token=x', h1: 'resetPassword.chooseANewPassword' },
  { path: '/support', h1: 'supportPage.howCanWeHelp' },
  { path: '/api-docs', notDashboard: true, shows: apiReferenceShown },
];

/** The pages every signed-in account has, with what a user with two keys and a few calls sees on them. */
const userPages = (keys: string[]): Visit[] => [
  { path: '/dashboard', h1: 'welcomeBanner.welcomeBack', testIds: ['dashboard-plan-badge'] },
  { path: '/keys', h1: 'apiKeysPage.apiKeys', testIds: ['api-key-card'], literals: keys, shows: keysToldApart },
  {
    path: '/analytics',
    h1: 'analyticsPage.analytics',
    texts: ['topEndpoints.topEndpoints', 'topKeys.topApiKeys'],
    literals: ['/ping'],
  },
  { path: '/playground', h1: 'playgroundPage.apiPlayground' },
  { path: '/jobs', h1: 'jobsPage.jobsWebhooks', texts: ['jobsPage.webhookSigningSecret'] },
  { path: '/plans', h1: 'plansPage.chooseYourPlan' },
  { path: '/settings', h1: 'settings.settings', testIds: ['session-row'] },
  { path: '/support', h1: 'supportPage.howCanWeHelp' },
];

/** An account an administrator made: its temporary password opens only /change-password. */
const newcomerPages: Visit[] = [
  { path: '/change-password', h1: 'changePassword.chooseYourPassword', testIds: ['temporary-password-notice'] },
];

const restrictedPages: Visit[] = [
  { path: '/admin/users', h1: 'usersPage.userManagement', testIds: ['users-restricted'] },
  { path: '/admin/system-monitor', h1: 'monitorPage.systemMonitor', testIds: ['monitor-restricted'] },
  { path: '/admin/monitor', h1: 'monitorPage.systemMonitor', testIds: ['monitor-restricted'] },
  { path: '/admin/plans', h1: 'adminPlansPage.planManagement', testIds: ['plans-restricted'] },
  { path: '/admin/audit', h1: 'auditLogPage.auditLog', testIds: ['audit-restricted'] },
];

const adminPages = (unverifiedEmail: string): Visit[] => [
  {
    path: '/admin/users',
    h1: 'usersPage.userManagement',
    testIds: ['user-row'],
    texts: ['userMessages.unverified'],
    literals: [unverifiedEmail],
  },
  { path: '/admin/system-monitor', h1: 'monitorPage.systemMonitor', testIds: ['monitor-status'] },
  { path: '/admin/monitor', h1: 'monitorPage.systemMonitor', testIds: ['monitor-status'] },
  { path: '/admin/plans', h1: 'adminPlansPage.planManagement', testIds: ['admin-plan-pro'] },
  { path: '/admin/settings', landsOn: '/admin/plans', h1: 'adminPlansPage.planManagement' },
  { path: '/admin/audit', h1: 'auditLogPage.auditLog', testIds: ['audit-row'] },
];

/** Sign in through the login form, by its fields rather than their labels (the page speaks either language). */
async function signInPage(page: Page, url: string, email: string, password: string, landsOn = '/dashboard') {
  await page.goto(`${url}/login`);
  await page.locator('input[type=email]').fill(email);
  await page.locator('input[type=password]').fill(password);
  await page.locator('form button[type=submit]').click();
  await page.waitForURL((u) => u.pathname === landsOn);
}

async function withKeyAndCalls(server: E2eServer, email: string, password: string, names: string[]): Promise<void> {
  const accessToken = await accessTokenOf(server.url, email, password);
  // The Pro trial allows several keys (the free plan one).
  const trial = await apiClient(server.url, { accessToken }).api.POST('/api/v1/my/subscriptions', {
    body: { planName: 'pro' },
  });
  dataOf(trial, `trial of ${email}`);
  for (const name of names) {
    const made = await apiClient(server.url, { accessToken }).api.POST('/api/v1/my/api-keys', {
      body: { name, planName: 'pro' },
    });
    const apiKey = dataOf(made, `create ${name}`).apiKey.key!;
    for (let i = 0; i < 2; i += 1) await apiClient(server.url, { apiKey }).api.GET('/api/v1/ping');
  }
}

describe('every page fits its width, in English and in French', () => {
  let server: E2eServer;
  let browser: Browser;
  let userEmail: string;
  let unverifiedEmail: string;
  let newcomer: { email: string; password: string; landsOn: string };
  const userName = 'Layout Tester';
  const userKeys = ['Layout first key', 'Layout second key for the nightly invoice archive of the accounting team'];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ owner }), launchBrowser()]);
    userEmail = await verifiedUser(server, userName, 'layout');
    unverifiedEmail = uniqueEmail('unverified');
    await registerByApi(server.url, { name: 'Nadia Unverified', email: unverifiedEmail });
    await withKeyAndCalls(server, userEmail, strongPassword, userKeys);
    await withKeyAndCalls(server, owner.email, owner.password, ['Owner key']);
    // An administration action for the audit log: an account the owner creates.
    const accessToken = await accessTokenOf(server.url, owner.email, owner.password);
    const created = await apiClient(server.url, { accessToken }).api.POST('/api/v1/admin/users', {
      body: { email: uniqueEmail('created'), name: 'Camille Created-By-Admin', company: 'Établissements Longuenom' },
    });
    const made = dataOf(created, 'admin creates a user');
    newcomer = { email: made.user.email, password: made.tempPassword, landsOn: '/change-password' };
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const lang of ['en', 'fr'] as const) {
    for (const [size, viewport] of Object.entries(sizes)) {
      it(`${lang} at ${size} width (${viewport.width}×${viewport.height})`, { timeout: 420_000 }, async () => {
        const problems: string[] = [];
        const errors: string[] = [];

        /** The page of `visit`: its heading and content in `lang`, and what does not fit (collected). */
        const check = async (page: Page, visit: Visit, where: string) => {
          await page.goto(`${server.url}${visit.path}`);
          const landsOn = visit.landsOn ?? visit.path.split('?')[0];
          // Swagger UI may add a trailing slash or a hash: the path is what counts.
          await page.waitForURL((u) => u.pathname === landsOn || u.pathname === `${landsOn}/`);
          if (visit.h1) {
            // The one h1, once it reads what it should (a page may render before its data arrives).
            const h1 = page.getByRole('heading', { level: 1 });
            const expected = text(lang, visit.h1, visit.values);
            await h1.filter({ hasText: expected }).waitFor();
            expect(await h1.count(), `${where}: h1 count`).toBe(1);
          }
          for (const id of visit.testIds ?? []) await page.getByTestId(id).first().waitFor();
          for (const key of visit.texts ?? [])
            await page.getByText(text(lang, key), { exact: false }).first().waitFor();
          for (const literal of visit.literals ?? []) await page.getByText(literal).first().waitFor();
          await visit.shows?.(page);
          await page.waitForLoadState('networkidle');
          if (!visit.notDashboard) expect(await page.evaluate(() => document.documentElement.lang), where).toBe(lang);
          for (const p of await layoutProblems(page, { scrollersMayScroll: size === 'phone' }))
            problems.push(`${where}: ${p}`);
        };

        const visitAll = async (
          who: string,
          visits: Visit[],
          signIn?: { email: string; password: string; landsOn?: string },
        ) => {
          const context = await browser.newContext({
            viewport,
            locale: locales[lang],
            deviceScaleFactor: 1,
            reducedMotion: 'reduce',
          });
          const page = await context.newPage();
          page.setDefaultTimeout(15_000);
          page.on('pageerror', (e) => errors.push(`${who}: ${e.message}`));
          if (signIn) {
            // A signed-in dashboard speaks the account's language (set at sign-up from the browser's): this one's.
            await server.sql('UPDATE users SET language = $1 WHERE email = $2', [lang, signIn.email]);
            await signInPage(page, server.url, signIn.email, signIn.password, signIn.landsOn);
          }
          for (const visit of visits) {
            const name = `${who}${visit.path.replace(/[/?=]+/g, '-').replace(/-$/, '') || '-home'}`;
            const found = problems.length;
            let failed = true;
            try {
              await check(page, visit, `${who} ${visit.path}`);
              failed = false;
            } finally {
              // A full-page capture of each of the 120 visits cost this file a quarter of its time (220 s against
              // 169 s): taken where the page failed or did not fit, and of every page with E2E_SCREENSHOTS=1.
              if (failed || problems.length > found || process.env.E2E_SCREENSHOTS === '1')
                await screenshot(page, `layout-${lang}-${size}-${name}`);
            }
          }
          await context.close();
        };

        // The API reference speaks Swagger UI's English whatever the browser's language: visited in English only.
        await visitAll(
          'visitor',
          visitorPages.filter((v) => lang === 'en' || !v.notDashboard),
        );
        await visitAll('user', [...userPages(userKeys), ...restrictedPages], {
          email: userEmail,
          password: strongPassword,
        });
        await visitAll('newcomer', newcomerPages, newcomer);
        await visitAll('admin', [...userPages(['Owner key']).slice(0, 3), ...adminPages(unverifiedEmail)], owner);

        expect(errors, 'browser errors').toEqual([]);
        expect(problems, 'layout problems').toEqual([]);
      });
    }
  }
});
