import type { Page, Request } from 'playwright-core';
import { EngineError } from '../../errors';
import type { PageChecks } from '../../operations/convert/interfaces';

/** Whether a status fails the render: any 4xx or 5xx without a list, else the listed ones (499: 4xx, 599: 5xx). */
export function failsOn(status: number, codes: number[] | undefined): boolean {
  if (!codes) return status >= 400;
  return codes.some(
    (c) =>
      c === status || (c === 499 && status >= 400 && status <= 499) || (c === 599 && status >= 500 && status <= 599),
  );
}

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
};

/** A host is left out when it is one of the domains or under one ("example.com" covers "cdn.example.com"). */
const ignoredBy = (domains: string[]) => (url: string) => {
  const host = hostOf(url);
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
};

/** At most this many resources named in a failure's message (the details keep as many). */
const LISTED = 10;

/**
 * The page's other resources (everything but its main document), watched as they load when the checks ask for it:
 * a status from failOnResourceHttpStatusCodes, or a load that failed outright (failOnResourceLoadingFailed), fails
 * the render once the page is ready, naming them (Gotenberg's 409).
 */
export function watchResources(page: Page, checks: PageChecks, isMainDocument: (r: Request) => boolean) {
  const statuses: Array<{ url: string; status: number }> = [];
  const failures: Array<{ url: string; error: string; type: string }> = [];
  const codes = checks.failOnResourceHttpStatusCodes;
  if (codes?.length) {
    const ignored = ignoredBy((checks.ignoreResourceHttpStatusDomains ?? []).map((d) => d.toLowerCase()));
    page.on('response', (res) => {
      if (!isMainDocument(res.request()) && failsOn(res.status(), codes) && !ignored(res.url()))
        statuses.push({ url: res.url(), status: res.status() });
    });
  }
  if (checks.failOnResourceLoadingFailed)
    page.on('requestfailed', (r) => {
      if (!isMainDocument(r))
        failures.push({ url: r.url(), error: r.failure()?.errorText ?? 'failed', type: r.resourceType() });
    });
  return {
    check(): void {
      if (statuses.length)
        throw refused('RESOURCE_HTTP_STATUS', 'Invalid HTTP status code from resources', statuses, (r) => r.status);
      if (failures.length)
        throw refused('RESOURCE_LOADING', 'The page failed to load resources', failures, (r) => r.error);
    },
  };
}

/** The render's failure (Gotenberg's 409), naming the first resources and what happened to each. */
function refused<R extends { url: string }>(
  reason: string,
  title: string,
  resources: R[],
  what: (r: R) => string | number,
): EngineError {
  const listed = resources.slice(0, LISTED).map((r) => `${r.url} - ${what(r)}`);
  return new EngineError('INVALID_DOCUMENT', `${title}: ${listed.join('; ')}`, {
    details: { reason, resources: resources.slice(0, 100) },
  });
}
