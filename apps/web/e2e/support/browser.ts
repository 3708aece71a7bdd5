import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { webRoot } from './server';

export const artifactsDir = path.join(webRoot, 'e2e', 'artifacts');

export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/** Headless Chromium from Debian. Playwright gives every launch a fresh temporary profile (user-data dir). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

interface ExpectedFailure {
  url: RegExp;
  status: number;
}

/**
 * Collects every console error and uncaught page error. A failed request the test provokes on purpose (a wrong
 * password's 401, an expired session's 401) is allowed only by exact URL pattern and status, so anything else fails.
 */
export class ErrorWatch {
  readonly errors: string[] = [];
  private expected: ExpectedFailure[] = [];
  private seen: Array<{ url: string; status: number }> = [];

  constructor(readonly page: Page) {
    page.on('response', (res) => {
      if (res.status() >= 400) this.seen.push({ url: res.url(), status: res.status() });
    });
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !this.isExpected(msg))
        this.errors.push(`console: ${msg.text()} @ ${msg.location().url}`);
    });
    page.on('pageerror', (err) => this.errors.push(`pageerror: ${err.message}`));
  }

  /** Allow the browser's "Failed to load resource" line for this URL and status. */
  expect(url: RegExp, status: number): void {
    this.expected.push({ url, status });
  }

  private isExpected(msg: ConsoleMessage): boolean {
    const m = /Failed to load resource: the server responded with a status of (\d{3})/.exec(msg.text());
    if (!m) return false;
    const status = Number(m[1]);
    const url = msg.location().url;
    return (
      this.expected.some((e) => e.status === status && e.url.test(url)) &&
      this.seen.some((s) => s.url === url && s.status === status)
    );
  }

  assertClean(): void {
    if (this.errors.length) throw new Error(`browser errors:\n${this.errors.join('\n')}`);
  }
}

export interface E2ePage {
  context: BrowserContext;
  page: Page;
  watch: ErrorWatch;
}

export async function newPage(
  browser: Browser,
  viewport: { width: number; height: number } = viewports.desktop,
): Promise<E2ePage> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, reducedMotion: 'reduce' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page, watch: new ErrorWatch(page) };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
