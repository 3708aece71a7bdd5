/** The languages the API speaks to people: machine codes never change, human messages follow Accept-Language. */
export const apiLanguages = ['en', 'fr'] as const;
export type TApiLanguage = (typeof apiLanguages)[number];

/**
 * The best language of an Accept-Language header we speak ("fr-CA,fr;q=0.9,en;q=0.8" → fr); English when it names
 * none we speak. A language given q=0 is refused, as RFC 9110 says. Without the header, undefined: the messages are
 * answered as written, so a client that never asked sees no change.
 */
export function requestLanguage(header: string | string[] | undefined): TApiLanguage | undefined {
  if (header === undefined || (Array.isArray(header) ? header.join('') : header).trim() === '') return undefined;
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  const ranked = value
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { base: tag.trim().toLowerCase().split('-')[0] ?? '', q: q ? Number(q.slice(2)) : 1, i };
    })
    .filter((r) => r.base && Number.isFinite(r.q) && r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  const found = ranked.find((r) => (apiLanguages as readonly string[]).includes(r.base));
  return (found?.base as TApiLanguage | undefined) ?? 'en';
}
