import { invalidForm } from './form';

/**
 * Gotenberg hands its page fields (`splitSpan` in pages mode, `rotatePages`, `watermarkPages`, `stampPages`) to
 * pdfcpu first, then qpdf, so a client may write either tool's selection: "1-3,5", "5-" and "-3" (open ends),
 * "even", "odd", "!2" or "n2" (all but 2), and the last page as "l" (pdfcpu), "z" (qpdf), "end" or "last". The
 * selection is a set, as pdfcpu's is: pages in ascending order, each once; pages past the end are left out.
 */

const LAST = new Set(['l', 'z', 'end', 'last']);

const valid = `page numbers and ranges such as '1-3,5', '5-', '-3', '2-end', 'even', 'odd' or '!2'`;

/** The pages selected, or every page when the field is empty. */
export function selectPages(spec: string, total: number, field: string): number[] {
  const text = spec.replace(/\s+/g, '').toLowerCase();
  const all = Array.from({ length: total }, (_, i) => i + 1);
  if (text === '' || text === 'all') return all;
  const bad = (part: string) => invalidForm(`form field '${field}' is invalid (got '${part}'): expected ${valid}`);
  const page = (token: string, part: string) => {
    if (LAST.has(token)) return total;
    if (!/^\d+$/.test(token) || Number(token) < 1) throw bad(part);
    return Number(token);
  };
  const included = new Set<number>();
  const excluded = new Set<number>();
  let includes = false;
  for (const part of text.split(',')) {
    if (part === '') throw bad(spec);
    const negated = /^[!n]/.test(part);
    const item = negated ? part.slice(1) : part;
    let pages: number[];
    if (item === 'even' || item === 'odd') pages = all.filter((p) => p % 2 === (item === 'even' ? 0 : 1));
    else {
      const m = /^([^-]*)(-)?([^-]*)$/.exec(item);
      if (!m || (!m[1] && !m[3])) throw bad(part);
      const from = m[1] ? page(m[1], part) : 1;
      const to = m[2] ? (m[3] ? page(m[3], part) : total) : from;
      if (from > to) throw bad(part);
      pages = all.slice(from - 1, to);
    }
    includes ||= !negated;
    for (const p of pages) (negated ? excluded : included).add(p);
  }
  // Only exclusions ("!2"): every other page.
  const base = includes ? [...included] : all;
  const chosen = base.filter((p) => !excluded.has(p)).sort((a, b) => a - b);
  if (!chosen.length)
    throw invalidForm(`form field '${field}' selects no page of a ${total}-page document (got '${spec}')`);
  return chosen;
}
