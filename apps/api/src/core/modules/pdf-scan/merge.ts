import { randomBytes } from 'node:crypto';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { aborted } from '../../limiter';
import { PdfDocument, type RawObject } from './document';
import { treeKeys } from './keys';
import { giveUp } from './limits';
import { isDict, Parser, Ref, refKey, type PdfDict, type PdfValue } from './objects';
import { walkPageTree } from './page-tree';

/**
 * Entries of a catalog that a merge may drop: none changes what the pages show, and pdfunite, the next engine of the
 * chain, drops every one of them too (poppler 22; the test checks it), so a file holding them gets the same document
 * here, only faster. LibreOffice writes /OpenAction into every PDF and Chromium a structure tree (/StructTreeRoot,
 * /MarkInfo, /Lang). Any other entry (named destinations, a form, optional content, output intents, attachments, a
 * base URI) is a document feature the tools carry: such a file is declined and the next engine merges it.
 */
const DROPPABLE_CATALOG_KEYS = new Set([
  'Type',
  'Pages',
  'Version',
  'Lang',
  'Metadata',
  'PageLayout',
  'PageMode',
  'ViewerPreferences',
  'PageLabels',
  'MarkInfo',
  'StructTreeRoot',
  'Outlines',
  'OpenAction',
  'AA',
]);

/**
 * Objects one merge copies, all inputs together: each costs this process a map entry until the merge ends. Real
 * documents hold far fewer (a 2000-page report some 20 000); past it, a tool merges in a process of its own.
 */
const MAX_COPIED_OBJECTS = 500_000;

/** Objects copied between two yields to the event loop. */
const OBJECTS_PER_SLICE = 512;
const CHUNK_BYTES = 256 * 1024;
const NEW_CATALOG = 1;
const NEW_ROOT = 2;

/**
 * The output, written in order: small pieces are copied into a chunk (no buffer per piece), large stream data is
 * queued as it is, and the queue goes to the file in one writev per megabyte. Keeps each object's offset.
 */
class ObjectWriter {
  private chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  private queued: Buffer[] = [];
  private queuedBytes = 0;
  private offset = 0;
  /** By new object number; 0 is the free head. */
  readonly offsets: number[] = [0];

  constructor(private readonly fh: FileHandle) {}

  get position(): number {
    return this.offset;
  }

  begin(num: number): void {
    this.offsets[num] = this.offset;
    this.text(`${num} 0 obj\n`);
  }

  text(s: string): void {
    if (this.used + s.length > CHUNK_BYTES) this.seal();
    if (s.length > CHUNK_BYTES) return this.queue(Buffer.from(s, 'latin1'));
    this.used += this.chunk.write(s, this.used, 'latin1');
    this.offset += s.length;
  }

  bytes(b: Buffer): void {
    if (b.length > CHUNK_BYTES / 4) {
      this.seal();
      return this.queue(b);
    }
    if (this.used + b.length > CHUNK_BYTES) this.seal();
    this.used += b.copy(this.chunk, this.used);
    this.offset += b.length;
  }

  /** Write what is queued once it is worth a system call (`all`: everything). */
  async drain(all = false): Promise<void> {
    if (all) this.seal();
    if (!this.queuedBytes || (!all && this.queuedBytes < CHUNK_BYTES)) return;
    const parts = this.queued;
    this.queued = [];
    this.queuedBytes = 0;
    await this.fh.writev(parts);
  }

  private queue(b: Buffer): void {
    this.queued.push(b);
    this.queuedBytes += b.length;
    this.offset += b.length;
  }

  private seal(): void {
    if (!this.used) return;
    this.queued.push(this.chunk.subarray(0, this.used));
    this.queuedBytes += this.used;
    this.chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    this.used = 0;
  }
}

/**
 * Merge by copying: each input's page tree, and every object its pages reach, is copied as written (its bytes,
 * stream data undecoded), with only its object numbers changed; each input's page tree root becomes a kid of the
 * new root, so what its pages inherit (resources, boxes, rotation) is unchanged. No tool starts, and no content is
 * decoded or rewritten, so the cost is reading and writing the bytes.
 *
 * Declined (UNSUPPORTED_OPERATION, for the next engine): what pdf-scan cannot read (encrypted, damaged, unusual
 * files), catalogs with document features beyond the pages, and page trees whose /Count is wrong anywhere (they are
 * rebuilt by the tools, which number pages by the leaves).
 */
export async function mergeByCopy(inputs: string[], output: string, signal?: AbortSignal): Promise<void> {
  if (!inputs.length) throw giveUp('nothing to merge');
  const fh = await open(output, 'w');
  let done = false;
  try {
    const w = new ObjectWriter(fh);
    // The header is rewritten with the inputs' highest version once they are read (same length: `%PDF-x.y`).
    w.text('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
    let next = NEW_ROOT + 1;
    let version = '1.4';
    let pages = 0;
    const roots: number[] = [];
    for (const input of inputs) {
      const doc = await PdfDocument.open(input, treeKeys);
      try {
        const copied = await copyInput(doc, w, next, signal);
        next = copied.next;
        pages += copied.pages;
        roots.push(copied.root);
        if (copied.version > version) version = copied.version;
      } finally {
        await doc.close();
      }
    }
    w.begin(NEW_CATALOG);
    w.text(`<</Type/Catalog/Pages ${NEW_ROOT} 0 R>>\nendobj\n`);
    w.begin(NEW_ROOT);
    w.text(`<</Type/Pages/Kids[${roots.map((r) => `${r} 0 R`).join(' ')}]/Count ${pages}>>\nendobj\n`);
    const xref = w.position;
    const rows = ['xref', `0 ${next}`, '0000000000 65535 f '];
    for (let n = 1; n < next; n++) rows.push(`${String(w.offsets[n]).padStart(10, '0')} 00000 n `);
    const id = randomBytes(16).toString('hex');
    rows.push('trailer', `<</Size ${next}/Root ${NEW_CATALOG} 0 R/ID[<${id}><${id}>]>>`, 'startxref', String(xref));
    w.text(`${rows.join('\n')}\n%%EOF\n`);
    await w.drain(true);
    await fh.write(Buffer.from(`%PDF-${version}`, 'latin1'), 0, 8, 0);
    done = true;
  } finally {
    await fh.close();
    if (!done) await rm(output, { force: true });
  }
}

interface CopiedInput {
  /** The new number of the input's page tree root. */
  root: number;
  pages: number;
  /** The next free object number. */
  next: number;
  version: string;
}

async function copyInput(doc: PdfDocument, w: ObjectWriter, first: number, signal?: AbortSignal): Promise<CopiedInput> {
  const { catalog, header } = await doc.step(() => {
    const rootRef = doc.trailer.get('Root');
    if (!(rootRef instanceof Ref)) throw giveUp('catalog is not an indirect object');
    return { catalog: fullValue(doc.rawObject(rootRef)), header: doc.bytes(0, 16).toString('latin1') };
  });
  if (!isDict(catalog)) throw giveUp('no document catalog');
  for (const key of catalog.keys()) if (!DROPPABLE_CATALOG_KEYS.has(key)) throw giveUp(`catalog has /${key}`);
  const pagesRef = catalog.get('Pages');
  if (!(pagesRef instanceof Ref)) throw giveUp('page tree root is not an indirect object');
  const pages = await checkCounts(doc, signal);

  const numbers = new Map<number, number>();
  let next = first;
  const numberOf = (ref: Ref) => {
    let n = numbers.get(refKey(ref));
    if (n === undefined) {
      if (next > MAX_COPIED_OBJECTS) throw giveUp('more objects than a merge copies in process');
      n = next++;
      numbers.set(refKey(ref), n);
      queue.push(ref);
    }
    return n;
  };
  const queue: Ref[] = [];
  const root = numberOf(pagesRef);
  for (let i = 0; i < queue.length; i++) {
    if (i % OBJECTS_PER_SLICE === OBJECTS_PER_SLICE - 1) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw aborted();
    }
    const ref = queue[i]!;
    const raw = await doc.step(() => doc.rawObject(ref));
    w.begin(numbers.get(refKey(ref))!);
    writeRenumbered(w, raw, numberOf, ref === pagesRef);
    if (raw.stream) {
      w.text('\nstream\n');
      if (doc.inMemory) w.bytes(doc.bytes(raw.stream.offset, raw.stream.length));
      else for await (const part of doc.range(raw.stream.offset, raw.stream.length)) w.bytes(part);
      w.text('\nendstream');
    }
    w.text('\nendobj\n');
    await w.drain();
  }
  return { root, pages, next, version: versionOf(header, catalog.get('Version')) };
}

/** The value, whole, from its bytes. */
const fullValue = (raw: RawObject): PdfValue => new Parser(raw.body, 0, true).value();

/** The object's bytes with each reference renumbered; the page tree root gets the new root as its /Parent. */
function writeRenumbered(w: ObjectWriter, raw: RawObject, numberOf: (ref: Ref) => number, isRoot: boolean): void {
  const body = raw.body;
  let at = 0;
  if (isRoot) {
    const dict = fullValue(raw);
    if (!isDict(dict) || body[0] !== 0x3c || body[1] !== 0x3c) throw giveUp('page tree root is not a dictionary');
    if (dict.has('Parent')) throw giveUp('page tree root has a /Parent');
    w.text(`<</Parent ${NEW_ROOT} 0 R `);
    at = 2;
  }
  for (const span of raw.refs) {
    w.bytes(body.subarray(at, span.start));
    w.text(`${numberOf(span.ref)} 0 R`);
    at = span.end;
  }
  w.bytes(body.subarray(at));
}

/**
 * Every page tree node's /Count must be the number of pages under it: the copy keeps the input's nodes, and
 * readers that find a page by its index skip subtrees by their /Count. Returns the number of pages.
 */
async function checkCounts(doc: PdfDocument, signal?: AbortSignal): Promise<number> {
  const nodes: Array<{ node: PdfDict; pages: number }> = [];
  type Path = Array<{ node: PdfDict; pages: number }>;
  const walk = await walkPageTree<Path>(
    doc,
    {
      enter(path, node) {
        if (!node.has('Kids')) return path;
        const entry = { node, pages: 0 };
        nodes.push(entry);
        return [...path, entry];
      },
      page(path) {
        for (const entry of path) entry.pages++;
      },
    },
    [],
    { signal },
  );
  if (walk.pages === 0) throw giveUp('no pages');
  await doc.step(() => {
    for (const { node, pages } of nodes) {
      if (doc.resolve(node.get('Count')) !== pages) throw giveUp('page tree /Count disagrees with its pages');
    }
  });
  return walk.pages;
}

/** The higher of the header's version and the catalog's /Version, as `x.y`. */
function versionOf(header: string, catalogVersion: PdfValue | undefined): string {
  const fromHeader = /^%PDF-(\d\.\d)/.exec(header)?.[1] ?? '1.4';
  const fromCatalog = typeof catalogVersion === 'string' && /^\d\.\d$/.test(catalogVersion) ? catalogVersion : '';
  return fromCatalog > fromHeader ? fromCatalog : fromHeader;
}
