import { EngineError } from './errors';

/**
 * The one parser of page lists and ranges ("1-3,5", "7-", "all"), shared by every route that takes pages.
 * Errors are INVALID_INPUT naming the field, what was wrong and the valid form.
 */

const validForm = (total: number) =>
  `page numbers from 1 to ${total}, ranges like "1-3,5,8-" ("8-" means 8 to the last page), or "all"`;

function bad(field: string, message: string, total: number): EngineError {
  return new EngineError('INVALID_INPUT', `${field}: ${message} (valid: ${validForm(total)})`, {
    details: { field, valid: validForm(total) },
  });
}

export interface PageRange {
  from: number;
  to: number;
}

/** Parse `spec` into ranges, in the order written. Empty or "all" is the whole document. */
export function parsePageRanges(spec: string | undefined, total: number, field: string): PageRange[] {
  const text = (spec ?? '').trim().toLowerCase();
  if (text === '' || text === 'all' || text === '*') return [{ from: 1, to: total }];
  const ranges: PageRange[] = [];
  for (const rawPart of text.split(',')) {
    const part = rawPart.trim();
    if (part === '') throw bad(field, `"${spec}" has an empty item`, total);
    const m = /^(\d+|last)\s*(?:(-)\s*(\d+|last)?)?$/.exec(part);
    if (!m) throw bad(field, `"${part}" is not a page number or range`, total);
    const num = (s: string) => (s === 'last' ? total : Number(s));
    const from = num(m[1]!);
    const to = m[2] ? (m[3] === undefined ? total : num(m[3])) : from;
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) throw bad(field, `"${part}" is out of range`, total);
    if (from < 1 || to < 1) throw bad(field, `"${part}": pages start at 1`, total);
    if (from > to) throw bad(field, `"${part}" runs backwards (write the lower page first)`, total);
    if (to > total) {
      throw bad(
        field,
        `"${part}" goes beyond the last page: the document has ${total} page${total === 1 ? '' : 's'}`,
        total,
      );
    }
    ranges.push({ from, to });
  }
  return ranges;
}

/** The pages of `spec`, in the order written (repeats kept). */
export function parsePageList(spec: string | undefined, total: number, field: string): number[] {
  return expandRanges(parsePageRanges(spec, total, field));
}

/** The distinct pages of `spec`, ascending. */
export function parsePageSet(spec: string | undefined, total: number, field: string): number[] {
  return [...new Set(parsePageList(spec, total, field))].sort((a, b) => a - b);
}

export function expandRanges(ranges: PageRange[]): number[] {
  const out: number[] = [];
  for (const r of ranges) for (let p = r.from; p <= r.to; p++) out.push(p);
  return out;
}

/** A new order of all pages: every page exactly once ("3,1,2", "2-5,1"), or "reverse". */
export function parsePageOrder(spec: string | undefined, total: number, field: string): number[] {
  const text = (spec ?? '').trim().toLowerCase();
  if (text === '') throw bad(field, 'is required', total);
  if (text === 'reverse') return Array.from({ length: total }, (_, i) => total - i);
  const order = parsePageList(text, total, field);
  const seen = new Set<number>();
  for (const p of order) {
    if (seen.has(p)) {
      throw new EngineError(
        'INVALID_INPUT',
        `${field}: page ${p} appears twice; list each of the ${total} pages exactly once, or "reverse"`,
        {
          details: { field },
        },
      );
    }
    seen.add(p);
  }
  if (seen.size !== total) {
    const missing = Array.from({ length: total }, (_, i) => i + 1).filter((p) => !seen.has(p));
    throw new EngineError(
      'INVALID_INPUT',
      `${field}: list each of the ${total} pages exactly once, or "reverse" (missing: ${compressPages(missing.slice(0, 50))})`,
      { details: { field, missing: missing.slice(0, 50) } },
    );
  }
  return order;
}

/** "1,2,3,5" → "1-3,5": the compact form tools accept. */
export function compressPages(pages: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < pages.length;) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j]! + 1) j++;
    parts.push(j > i ? `${pages[i]}-${pages[j]}` : String(pages[i]));
    i = j + 1;
  }
  return parts.join(',');
}

/** Contiguous runs of ascending page numbers: tools that take -f/-l run once per run. */
export function pageRuns(pages: number[]): PageRange[] {
  const runs: PageRange[] = [];
  for (const p of pages) {
    const last = runs[runs.length - 1];
    if (last && p === last.to + 1) last.to = p;
    else runs.push({ from: p, to: p });
  }
  return runs;
}

/**
 * `runs` cut into about `parts` pieces of similar page count, in order: work one tool does page by page can then use
 * several cores. Pieces under `minPages` are not worth another process; each run stays at least one piece.
 */
export function splitRuns(runs: PageRange[], parts: number, minPages: number): PageRange[] {
  const total = runs.reduce((n, r) => n + r.to - r.from + 1, 0);
  const pieces = Math.min(parts, Math.floor(total / minPages));
  if (pieces < 2) return runs;
  const size = total / pieces;
  const out: PageRange[] = [];
  for (const r of runs) {
    const len = r.to - r.from + 1;
    const k = Math.max(1, Math.round(len / size));
    for (let i = 0; i < k; i++) {
      const from = r.from + Math.round((i * len) / k);
      const to = r.from + Math.round(((i + 1) * len) / k) - 1;
      out.push({ from, to });
    }
  }
  return out;
}
