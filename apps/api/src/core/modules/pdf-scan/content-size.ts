import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflate, inflateSync } from 'node:zlib';
import { aborted } from '../../limiter';
import type { PdfDocument } from './document';
import { contentLimits, giveUp } from './limits';
import { PdfStream, type PdfDict, type PdfValue } from './objects';
import { walkPageTree } from './page-tree';

/**
 * The decoded size of every page's content (/Contents), to refuse a flate bomb before a tool renders, rewrites or
 * reads it (core/pdf/operations/job.ts). A page's content is what every tool parses in full; a few KB of Flate data
 * can inflate to gigabytes of operators. Measuring inflates each distinct content stream once, only to count its
 * bytes and only up to the per-page bound, so a bomb costs at most that bound of inflation, never its whole size.
 *
 * Not measured: Form XObjects and patterns the content draws (finding them means parsing the resources and the
 * operators of every page); content streams with filters other than FlateDecode (rare: LZW and the ASCII filters
 * date from before Flate) make the measurement give up like any other structure the scan does not handle.
 */

export interface ContentSize {
  pages: number;
  /** Decoded bytes of all the pages' content (a shared stream once per page using it), up to where measuring stopped. */
  totalBytes: number;
  /** The page with the most content, 1-based, and its decoded bytes (at least that many when it passed a bound). */
  largestPage: { page: number; bytes: number };
  /** The bound passed (contentLimits): measuring stopped there. */
  over?: 'page' | 'file';
}

interface ContentStream {
  offset: number;
  length: number;
  /** FlateDecode filters applied one after the other (0: no filter). */
  flates: number;
}

/** Streams one page's /Contents array may hold before the scan gives up. */
const MAX_STREAMS_PER_PAGE = 10_000;
/** Filters of one stream. */
const MAX_FILTERS = 4;
/** A stream this small that inflates to at most this much is measured on the event loop (microseconds). */
const SYNC_RAW_BYTES = 64 * 1024;
const SYNC_OUTPUT_BYTES = 256 * 1024;
/** Pages measured between two yields to the event loop. */
const PAGES_PER_SLICE = 256;

export async function measureContent(doc: PdfDocument, signal?: AbortSignal): Promise<ContentSize> {
  const pages: ContentStream[][] = [];
  await walkPageTree<ContentStream[]>(
    doc,
    { enter: (_, node) => contentStreams(doc, node), page: (streams) => void pages.push(streams) },
    [],
    { signal },
  );
  const sizes = new Map<number, number>();
  const result: ContentSize = { pages: pages.length, totalBytes: 0, largestPage: { page: 0, bytes: 0 } };
  for (let i = 0; i < pages.length; i++) {
    let bytes = 0;
    for (const s of pages[i]!) {
      let n = sizes.get(s.offset);
      if (n === undefined) {
        n = await decodedSize(doc, s, contentLimits.pageBytes, signal);
        sizes.set(s.offset, n);
      }
      bytes += n;
      result.totalBytes += n;
      if (bytes > result.largestPage.bytes) result.largestPage = { page: i + 1, bytes };
      if (bytes > contentLimits.pageBytes) return { ...result, over: 'page' };
      if (result.totalBytes > contentLimits.fileBytes) return { ...result, over: 'file' };
    }
    if (i % PAGES_PER_SLICE === PAGES_PER_SLICE - 1) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw aborted();
    }
  }
  return result;
}

/** A page's content streams (none for an inner node of the tree or a page without content). Reads only. */
function contentStreams(doc: PdfDocument, node: PdfDict): ContentStream[] {
  if (node.has('Kids')) return [];
  const contents = doc.resolve(node.get('Contents'));
  if (contents === undefined || contents === null) return [];
  let items: Array<PdfValue | undefined>;
  if (contents instanceof PdfStream) items = [contents];
  else if (Array.isArray(contents)) {
    if (contents.length > MAX_STREAMS_PER_PAGE) throw giveUp('too many content streams on a page');
    items = contents.map((v) => doc.resolve(v));
  } else throw giveUp('page /Contents is neither a stream nor an array');
  return items.map((s) => {
    if (!(s instanceof PdfStream)) throw giveUp('page /Contents holds something other than a stream');
    const { offset, length, filter } = doc.streamExtent(s);
    return { offset, length, flates: flateCount(filter) };
  });
}

function flateCount(filter: PdfValue | undefined): number {
  if (filter === undefined || filter === null) return 0;
  const filters = Array.isArray(filter) ? filter : [filter];
  if (filters.length > MAX_FILTERS) throw giveUp('too many filters on a content stream');
  if (!filters.every((f) => f === 'FlateDecode')) throw giveUp('content stream filter other than FlateDecode');
  return filters.length;
}

/** Decoded bytes of one stream, up to a little past `cap`; data that does not decode counts up to where it fails. */
async function decodedSize(doc: PdfDocument, s: ContentStream, cap: number, signal?: AbortSignal): Promise<number> {
  if (s.flates === 0) return s.length;
  if (s.flates === 1 && doc.inMemory && s.length <= SYNC_RAW_BYTES) {
    try {
      return inflateSync(doc.bytes(s.offset, s.length), { maxOutputLength: SYNC_OUTPUT_BYTES }).length;
    } catch {
      // Larger than the event loop's share, or damaged data: streamed below, which counts what decodes.
    }
  }
  return streamedSize(doc, s, cap, signal);
}

class OverCap extends Error {}

/** Inflated in zlib's thread pool and counted as it comes, stopped past `cap`: a bomb never inflates whole. */
async function streamedSize(doc: PdfDocument, s: ContentStream, cap: number, signal?: AbortSignal): Promise<number> {
  let count = 0;
  const counter = new Writable({
    write(chunk: Buffer, _encoding, done) {
      count += chunk.length;
      done(count > cap ? new OverCap() : null);
    },
  });
  const stages = Array.from({ length: s.flates }, () => createInflate());
  try {
    await pipeline([Readable.from(doc.range(s.offset, s.length)), ...stages, counter], { signal });
  } catch (err) {
    if (signal?.aborted) throw aborted();
    // Past the cap, or data that stops decoding: the tools read up to there too.
    if (!(err instanceof OverCap) && !(err instanceof Error && 'errno' in err)) throw err;
  }
  return count;
}
