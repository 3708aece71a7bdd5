import { Readable, Writable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflate, inflateSync } from 'node:zlib';
import { aborted } from '../../limiter';
import { Ascii85Decoder, AsciiHexDecoder } from './ascii-filters';
import type { PdfDocument } from './document';
import { contentLimits, giveUp } from './limits';
import { isDict, PdfStream, type PdfDict, type PdfValue } from './objects';
import { walkPageTree } from './page-tree';

/**
 * The decoded size of every page's content (/Contents), to refuse a flate bomb before a tool renders, rewrites or
 * reads it (core/operations/pdf/job.ts). A page's content is what every tool parses in full; a few KB of Flate data
 * can inflate to gigabytes of operators. Measuring inflates each distinct content stream once, only to count its
 * bytes and only up to the per-page bound, so a bomb costs at most that bound of inflation, never its whole size.
 *
 * Form XObjects the page's resources offer are measured with the page (formStreams). Filters measured: Flate
 * and the two ASCII filters, chained in any order. Not measured: patterns and Type 3 glyphs (rarer places for a
 * bomb, left to the tools' deadline); content with LZW or RunLength (formats from before Flate) makes the
 * measurement give up like any other structure the scan does not handle.
 */

export interface ContentSize {
  pages: number;
  /** Decoded bytes of all the pages' content (a shared stream once per page using it), up to where measuring stopped. */
  totalBytes: number;
  /** The page with the most content, 1-based, and its decoded bytes (at least that many when it passed a bound). */
  largestPage: { page: number; bytes: number };
  /** The bound passed (contentLimits): measuring stopped there. */
  over?: 'page' | 'file';
  /**
   * The figures are upper bounds from the streams' encoded lengths (`exact: false`), far enough under the bounds that
   * nothing had to be inflated.
   */
  upperBound?: true;
}

interface ContentStream {
  offset: number;
  length: number;
  /** A Form XObject: counts against each page offering it, but once only in the file's total (a document often
   * offers every form to every page through inherited resources, and draws each on a few). */
  form?: boolean;
  /** FlateDecode filters applied one after the other (0: no filter). */
  filters: ContentFilter[];
}

/** What a page tree node hands down: the inherited resources, and (for a page) the streams to measure. */
interface PageContent {
  resources: PdfValue | undefined;
  streams: ContentStream[];
  /** The Form XObjects its resources offer. */
  forms: ContentStream[];
}

/** Form XObjects one page may reach, and how deeply forms may nest, before the scan gives up. */
const MAX_FORMS_PER_PAGE = 1000;
const MAX_FORM_DEPTH = 8;
/** Forms counted over all the pages (a page offering 1000 forms, 10 000 times) before the scan gives up. */
const MAX_FORM_ENTRIES = 2_000_000;

/** Streams one page's /Contents array may hold before the scan gives up. */
const MAX_STREAMS_PER_PAGE = 10_000;
/** Filters of one stream. */
const MAX_FILTERS = 4;
/** A stream this small that inflates to at most this much is measured on the event loop (microseconds). */
const SYNC_RAW_BYTES = 64 * 1024;
const SYNC_OUTPUT_BYTES = 256 * 1024;
/** Pages measured between two yields to the event loop. */
const PAGES_PER_SLICE = 256;

/**
 * The most one encoded byte can decode to, by filter: Deflate's format cannot expand data more than 1032:1 (a
 * 258-byte match costs at least two bits), two hex digits make a byte, and ASCII85's `z` is four zero bytes.
 */
const MAX_EXPANSION: Record<ContentFilter, number> = { FlateDecode: 1032, ASCIIHexDecode: 0.5, ASCII85Decode: 4 };

/** The most a stream can decode to, whatever its data (a little over, for the ends of the formats). */
function maxDecodedSize(s: ContentStream): number {
  let n = s.length;
  for (const f of s.filters) n = Math.ceil(n * MAX_EXPANSION[f]) + 1024;
  return n;
}

/**
 * `exact: false` first adds up what each stream could at most decode to: when even that stays within the bounds on
 * every page and in the file (ordinary documents: a few KB of Flate per page), nothing is inflated and the figures
 * are those upper bounds. Otherwise the streams are inflated and counted as with `exact`.
 */
export async function measureContent(
  doc: PdfDocument,
  signal?: AbortSignal,
  opts: { exact?: boolean } = {},
): Promise<ContentSize> {
  const pages: Array<[ContentStream[], ContentStream[]]> = [];
  // Resources are usually shared (inherited, or one object for many pages): their forms are found once.
  const formsOf = new Map<PdfValue | undefined, ContentStream[]>();
  let formEntries = 0;
  await walkPageTree<PageContent>(
    doc,
    {
      enter: (inherited, node) => {
        // /Resources is inherited down the page tree like the page boxes.
        const resources = node.has('Resources') ? node.get('Resources') : inherited.resources;
        if (node.has('Kids')) return { resources, streams: [], forms: [] };
        const streams = contentStreams(doc, node);
        const key = doc.resolve(resources);
        let forms = formsOf.get(key);
        if (!forms) {
          forms = formStreams(doc, key);
          formsOf.set(key, forms); // after every read: a step may run again (NeedBytes)
        }
        return { resources, streams, forms };
      },
      page: (state) => {
        formEntries += state.forms.length;
        if (formEntries > MAX_FORM_ENTRIES) throw giveUp('too many forms over the pages');
        pages.push([state.streams, state.forms]);
      },
    },
    { resources: undefined, streams: [], forms: [] },
    { signal },
  );
  if (opts.exact === false) {
    const bound = await sumSizes(pages, (s) => maxDecodedSize(s), signal);
    if (!bound.over) return { ...bound, upperBound: true };
  }
  const sizes = new Map<number, number>();
  const measured = async (s: ContentStream) => {
    let n = sizes.get(s.offset);
    if (n === undefined) {
      n = await decodedSize(doc, s, contentLimits.pageBytes, signal);
      sizes.set(s.offset, n);
    }
    return n;
  };
  return sumSizes(pages, measured, signal);
}

/** Adds up the pages' content by `size`, page by page, stopping at the first bound passed. */
async function sumSizes(
  pages: Array<[ContentStream[], ContentStream[]]>,
  size: (s: ContentStream) => number | Promise<number>,
  signal?: AbortSignal,
): Promise<ContentSize> {
  const countedForms = new Set<number>();
  const result: ContentSize = { pages: pages.length, totalBytes: 0, largestPage: { page: 0, bytes: 0 } };
  for (let i = 0; i < pages.length; i++) {
    let bytes = 0;
    for (const s of [...pages[i]![0], ...pages[i]![1]]) {
      const n = await size(s);
      bytes += n;
      if (!s.form || !countedForms.has(s.offset)) result.totalBytes += n;
      if (s.form) countedForms.add(s.offset);
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
    return { offset, length, filters: contentFilters(filter) };
  });
}

/**
 * The Form XObjects a page's resources offer, and theirs in turn: a form is content the tools parse in full when
 * the page draws it, so a bomb can sit there behind a two-byte page. Every form offered counts (whether the page's
 * operators draw it is not read): a page offering more content than the bound is refused all the same.
 */
function formStreams(
  doc: PdfDocument,
  resources: PdfValue | undefined,
  depth = 0,
  seen = new Set<number>(),
): ContentStream[] {
  const res = doc.resolve(resources);
  if (!isDict(res)) return [];
  const xobjects = doc.resolve(res.get('XObject'));
  if (!isDict(xobjects)) return [];
  const found: ContentStream[] = [];
  for (const v of xobjects.values()) {
    const x = doc.resolve(v);
    if (!(x instanceof PdfStream) || doc.resolve(x.dict.get('Subtype')) !== 'Form' || seen.has(x.dataOffset)) continue;
    if (seen.size >= MAX_FORMS_PER_PAGE) throw giveUp('too many forms on a page');
    if (depth >= MAX_FORM_DEPTH) throw giveUp('forms nested too deeply');
    seen.add(x.dataOffset);
    const { offset, length, filter } = doc.streamExtent(x);
    found.push({ offset, length, filters: contentFilters(filter), form: true });
    found.push(...formStreams(doc, x.dict.get('Resources'), depth + 1, seen));
  }
  return found;
}

type ContentFilter = 'FlateDecode' | 'ASCIIHexDecode' | 'ASCII85Decode';

/** The full and abbreviated names of the filters measured; any other makes the scan give up. */
const filterNames: Record<string, ContentFilter> = {
  FlateDecode: 'FlateDecode',
  Fl: 'FlateDecode',
  ASCIIHexDecode: 'ASCIIHexDecode',
  AHx: 'ASCIIHexDecode',
  ASCII85Decode: 'ASCII85Decode',
  A85: 'ASCII85Decode',
};

function contentFilters(filter: PdfValue | undefined): ContentFilter[] {
  if (filter === undefined || filter === null) return [];
  const filters = Array.isArray(filter) ? filter : [filter];
  if (filters.length > MAX_FILTERS) throw giveUp('too many filters on a content stream');
  return filters.map((f) => {
    const name = typeof f === 'string' ? filterNames[f] : undefined;
    if (!name) throw giveUp('content stream filter other than Flate and the ASCII filters');
    return name;
  });
}

const decoder = (f: ContentFilter): Transform =>
  f === 'FlateDecode' ? createInflate() : f === 'ASCIIHexDecode' ? new AsciiHexDecoder() : new Ascii85Decoder();

/** Decoded bytes of one stream, up to a little past `cap`; data that does not decode counts up to where it fails. */
async function decodedSize(doc: PdfDocument, s: ContentStream, cap: number, signal?: AbortSignal): Promise<number> {
  if (s.filters.length === 0) return s.length;
  if (s.filters.length === 1 && s.filters[0] === 'FlateDecode' && doc.inMemory && s.length <= SYNC_RAW_BYTES) {
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
  const stages = s.filters.map(decoder);
  try {
    await pipeline([Readable.from(doc.range(s.offset, s.length)), ...stages, counter], { signal });
  } catch (err) {
    if (signal?.aborted) throw aborted();
    // Past the cap, or data that stops decoding: the tools read up to there too.
    if (!(err instanceof OverCap) && !(err instanceof Error && 'errno' in err)) throw err;
  }
  return count;
}
