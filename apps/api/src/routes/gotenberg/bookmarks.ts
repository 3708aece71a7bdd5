import type { Bookmark } from '../../core/interfaces';
import type { GotenbergForm } from './form';

/**
 * Gotenberg's `bookmarks` field: a JSON list of `{ "title", "page", "children" }` for every PDF, or an object of such
 * lists by file name (a PDF not named keeps its outline). Read as Go reads it into its Bookmark type: a missing title
 * is empty, a missing page 0 (refused when written: the page must be in the document).
 */
export type GotenbergBookmarks = { all: Bookmark[] } | { byFile: Record<string, Bookmark[]> };

const shown = (v: string) => (v.length > 80 ? `${v.slice(0, 80)}…` : v);

function asBookmarks(value: unknown): Bookmark[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const list: Bookmark[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
    const { title = '', page = 0, children } = item as Record<string, unknown>;
    if (typeof title !== 'string' || typeof page !== 'number' || !Number.isInteger(page)) return undefined;
    const kids = children === undefined || children === null ? [] : asBookmarks(children);
    if (!kids) return undefined;
    list.push({ title, page, ...(kids.length ? { children: kids } : {}) });
  }
  return list;
}

export function readBookmarksField(form: GotenbergForm): GotenbergBookmarks | undefined {
  const raw = form.mandatoryString('bookmarks');
  if (!raw) return undefined;
  const fail = () => {
    form.fail(
      'bookmarks',
      `is invalid (got '${shown(raw)}', resulting to unmarshal bookmarks: expected a JSON list of {"title":"…","page":1,"children":[…]}, or an object of such lists by file name)`,
    );
    return undefined;
  };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return fail();
  }
  const all = asBookmarks(json);
  if (all) return { all };
  if (typeof json !== 'object' || json === null) return fail();
  const byFile: Record<string, Bookmark[]> = {};
  for (const [name, value] of Object.entries(json)) {
    const list = asBookmarks(value);
    if (!list) return fail();
    byFile[name] = list;
  }
  return { byFile };
}

/** The bookmarks for the file `name`: undefined when the form leaves it as it is. */
export const bookmarksFor = (b: GotenbergBookmarks, name: string): Bookmark[] | undefined =>
  'all' in b ? b.all : b.byFile[name];
