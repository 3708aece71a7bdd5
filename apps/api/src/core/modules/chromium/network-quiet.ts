import type { Page, Request } from 'playwright-core';

/** How long the network must stay at or under the bound to count as quiet (Chromium's own idle events use 500 ms). */
const QUIET_MS = 500;
const POLL_MS = 50;

/**
 * The page's requests in flight, counted from before it loads, for Chromium's "network almost idle" (at most `max`
 * requests for 500 ms: two for Gotenberg's skipNetworkAlmostIdleEvent=false), which Playwright does not offer.
 */
export function watchNetwork(page: Page, max: number) {
  const inFlight = new Set<Request>();
  /** Since when the count has been at or under `max`; null while above. */
  let under: number | null = Date.now();
  page.on('request', (r) => {
    inFlight.add(r);
    if (inFlight.size > max) under = null;
  });
  const settle = (r: Request) => {
    if (inFlight.delete(r) && inFlight.size <= max) under ??= Date.now();
  };
  page.on('requestfinished', settle);
  page.on('requestfailed', settle);
  return {
    /** Resolves once the count has stayed at or under `max` for 500 ms; bounded by the job's deadline (its race). */
    async quiet(): Promise<void> {
      while (under === null || Date.now() - under < QUIET_MS) await new Promise((r) => setTimeout(r, POLL_MS));
    },
  };
}
