import { EngineError } from '../../errors';
import type { Bookmark } from './interfaces';
import { OutputFile, PdfJob, PreparedPdf, out } from './job';

/** Bookmarks deeper than this are refused: an outline is for people to read, and each level recurses. */
const MAX_DEPTH = 32;
const MAX_ENTRIES = 10_000;

/** Every entry's page within the document, the tree within bounds; `field` names the request field in messages. */
function checkBookmarks(bookmarks: Bookmark[], pages: number, field: string): void {
  let entries = 0;
  const walk = (items: Bookmark[], depth: number) => {
    if (depth > MAX_DEPTH)
      throw new EngineError('INVALID_INPUT', `${field}: bookmarks nest deeper than ${MAX_DEPTH} levels`, {
        details: { field },
      });
    for (const b of items) {
      entries++;
      if (!Number.isInteger(b.page) || b.page < 1 || b.page > pages)
        throw new EngineError(
          'INVALID_INPUT',
          `${field}: the bookmark '${b.title}' opens page ${b.page}, but the document has pages 1 to ${pages}`,
          { details: { field } },
        );
      walk(b.children ?? [], depth + 1);
    }
  };
  walk(bookmarks, 1);
  if (entries > MAX_ENTRIES)
    throw new EngineError('INVALID_INPUT', `${field}: more than ${MAX_ENTRIES} bookmarks`, { details: { field } });
}

/** Replace the document's outline with `bookmarks`. */
export async function writeBookmarks(
  job: PdfJob,
  input: PreparedPdf,
  bookmarks: Bookmark[],
  field = 'bookmarks',
): Promise<OutputFile> {
  checkBookmarks(bookmarks, input.pages, field);
  const file = out(job, 'bookmarked.pdf');
  await job.engines.run('writeOutline', (f) => f(input.path, file, bookmarks, job.ctx), job.signal);
  return { path: file, name: 'bookmarked', pages: input.pages };
}
