import type { Bookmark } from '../../core/operations/pdf/interfaces';
import * as ops from '../../core/operations/pdf';
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

export function readBookmarksField(form: GotenbergForm, mandatory = true): GotenbergBookmarks | undefined {
  const raw = mandatory ? form.mandatoryString('bookmarks') : form.string('bookmarks');
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

/** The outline fields of Gotenberg's merge route. */
export interface MergeOutlineSpec {
  bookmarks?: GotenbergBookmarks;
  /** Each input's own outline, moved to where its pages land. */
  autoIndex: boolean;
  /** One entry per input (its Title, else its file name), its outline beneath. */
  titles: boolean;
}

export function readMergeOutline(form: GotenbergForm): MergeOutlineSpec {
  return {
    bookmarks: readBookmarksField(form, false),
    autoIndex: form.bool('autoIndexBookmarks', false),
    titles: form.bool('titleBookmarks', false),
  };
}

const shifted = (list: Bookmark[], offset: number): Bookmark[] =>
  list.map((b) => ({
    title: b.title,
    page: b.page + offset,
    ...(b.children?.length ? { children: shifted(b.children, offset) } : {}),
  }));

/**
 * The merged document's outline as Gotenberg's merge builds it: a list is taken as it is (its pages are the merged
 * document's); otherwise each input's entries (given by file name, or else its own outline with autoIndexBookmarks or
 * titleBookmarks) are moved by the pages before it, under one entry per input with titleBookmarks. Undefined: the
 * merged outline is left as the merge made it.
 */
export async function mergedOutline(
  job: ops.PdfJob,
  inputs: ops.PreparedPdf[],
  spec: MergeOutlineSpec,
): Promise<Bookmark[] | undefined> {
  const { bookmarks, autoIndex, titles } = spec;
  if (bookmarks && 'all' in bookmarks) return bookmarks.all.length ? bookmarks.all : undefined;
  const byFile = bookmarks?.byFile;
  if (!byFile && !autoIndex && !titles) return undefined;
  const outline: Bookmark[] = [];
  let offset = 0;
  for (const input of inputs) {
    let own = byFile?.[input.filename] ?? [];
    if (!own.length && (autoIndex || titles)) own = await ops.readBookmarks(job, input);
    const moved = shifted(own, offset);
    if (titles) {
      const title = (await ops.readMetadata(job, input)).title?.trim();
      outline.push({
        title: title || input.filename.replace(/\.[^.]*$/, ''),
        page: offset + 1,
        ...(moved.length ? { children: moved } : {}),
      });
    } else outline.push(...moved);
    offset += input.pages;
  }
  return outline.length ? outline : undefined;
}
