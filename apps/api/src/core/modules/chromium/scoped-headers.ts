import type { Page } from 'playwright-core';
import { RE2JS } from 're2js';
import type { ScopedHeader } from '../../operations/convert/interfaces';

/**
 * Headers sent only with the requests whose URL their scope matches (Gotenberg's `;scope=`): each request of the page
 * passes here first and goes on to the context's own policy (the URL rules, the document origin) with the matching
 * headers added, never elsewhere. Patterns run on RE2: linear in the URL, whatever the pattern.
 */
export async function addScopedHeaders(page: Page, headers: ScopedHeader[]): Promise<void> {
  const compiled = headers.map((h) => ({ ...h, re: RE2JS.compile(h.scope) }));
  await page.route(
    () => true,
    async (route) => {
      const request = route.request();
      const url = request.url();
      const matching = compiled.filter((h) => h.re.test(url));
      if (!matching.length) return route.fallback();
      // All the request's headers (cookies included): the override replaces the whole set.
      const all = await request.allHeaders();
      for (const h of matching) all[h.name.toLowerCase()] = h.value;
      return route.fallback({ headers: all });
    },
  );
}
