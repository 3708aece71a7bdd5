import { parseAt, rawStreamData } from './file-objects';
import { giveUp, limits, type Budget } from './limits';
import { isDict, parseIndirect, PdfStream, type Parser, type PdfDict, type PdfValue } from './objects';
import type { RandomAccessFile } from './reader';
import { decodeStream } from './streams';

export type XrefEntry =
  | { type: 'free' }
  | { type: 'offset'; offset: number; gen: number }
  | { type: 'compressed'; stream: number; index: number };

const UNSET = 0;
const FREE = 1;
const OFFSET = 2;
const COMPRESSED = 3;

/**
 * Where each object is, merged over all sections, newest first: an object keeps the first entry found for it.
 * Typed arrays rather than a Map: a hostile xref stream can declare millions of entries in a few bytes.
 */
export class XrefTable {
  private kinds = new Uint8Array(1024);
  private field2 = new Float64Array(1024);
  private field3 = new Uint32Array(1024);

  setIfAbsent(num: number, kind: number, f2: number, f3: number): void {
    if (num >= limits.objectNumber) throw giveUp('object number over the limit');
    if (num >= this.kinds.length) this.grow(num);
    if (this.kinds[num] !== UNSET) return;
    this.kinds[num] = kind;
    this.field2[num] = f2;
    this.field3[num] = f3;
  }

  get(num: number): XrefEntry | undefined {
    switch (num < this.kinds.length ? this.kinds[num] : UNSET) {
      case FREE:
        return { type: 'free' };
      case OFFSET:
        return { type: 'offset', offset: this.field2[num]!, gen: this.field3[num]! };
      case COMPRESSED:
        return { type: 'compressed', stream: this.field2[num]!, index: this.field3[num]! };
      default:
        return undefined;
    }
  }

  private grow(num: number): void {
    const size = Math.min(limits.objectNumber, Math.max(num + 1, this.kinds.length * 2));
    const kinds = new Uint8Array(size);
    const field2 = new Float64Array(size);
    const field3 = new Uint32Array(size);
    kinds.set(this.kinds);
    field2.set(this.field2);
    field3.set(this.field3);
    this.kinds = kinds;
    this.field2 = field2;
    this.field3 = field3;
  }
}

export interface CrossReference {
  table: XrefTable;
  /** The newest trailer (or xref stream dictionary). */
  trailer: PdfDict;
}

/** One section's entries as [object number, kind, field 2, field 3]. */
type Entry = [number, number, number, number];
interface Section {
  entries: Entry[];
  trailer: PdfDict;
}

/**
 * Read the cross-reference from `startxref` through every /Prev: classic tables with their trailers, xref streams,
 * and hybrid files (a table whose trailer points to an xref stream with /XRefStm).
 */
export async function readCrossReference(file: RandomAccessFile, budget: Budget): Promise<CrossReference> {
  const table = new XrefTable();
  const seen = new Set<number>();
  let trailer: PdfDict | undefined;
  for (let at: number | undefined = await file.step(() => findStartXref(file)); at !== undefined;) {
    if (seen.has(at)) throw giveUp('loop in the /Prev chain');
    if (seen.size >= limits.xrefSections) throw giveUp('too many xref sections');
    seen.add(at);
    const sectionAt = at;
    const section = await file.step(() => readSection(file, sectionAt, budget));
    // Only the tools can check a password and decrypt: an encrypted file is theirs.
    if (section.trailer.has('Encrypt')) throw giveUp('encrypted');
    trailer ??= section.trailer;
    const hybrid = optionalOffset(section.trailer.get('XRefStm'));
    const streamPart =
      hybrid === undefined ? [] : (await file.step(() => readXrefStream(file, hybrid, budget))).entries;
    mergeSection(table, section.entries, streamPart);
    at = optionalOffset(section.trailer.get('Prev'));
  }
  return { table, trailer: trailer! };
}

/**
 * A table's in-use entries come first, then those of its /XRefStm, then its free entries: a hybrid file lists the
 * objects of its object streams as free in the table, for readers that do not know xref streams.
 */
function mergeSection(table: XrefTable, entries: Entry[], hybrid: Entry[]): void {
  for (const e of entries) if (e[1] !== FREE) table.setIfAbsent(...e);
  for (const e of hybrid) table.setIfAbsent(...e);
  for (const e of entries) if (e[1] === FREE) table.setIfAbsent(...e);
}

function optionalOffset(v: PdfValue | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || v < 0) throw giveUp('bad xref offset');
  return v;
}

/** The offset after the last `startxref` near the end of the file. */
function findStartXref(file: RandomAccessFile): number {
  const tailLength = Math.min(file.size, 1024);
  const tail = file.bytes(file.size - tailLength, tailLength);
  const at = tail.lastIndexOf('startxref');
  if (at < 0) throw giveUp('no startxref');
  const m = /^startxref\s+(\d+)(?:\s|$)/.exec(tail.toString('latin1', at, at + 40));
  if (!m) throw giveUp('bad startxref');
  return Number(m[1]);
}

function readSection(file: RandomAccessFile, at: number, budget: Budget): Section {
  const isTable = parseAt(file, at, (p) => p.keyword() === 'xref');
  return isTable ? parseAt(file, at, parseTable) : readXrefStream(file, at, budget);
}

function parseTable(p: Parser): Section {
  p.expectKeyword('xref');
  const entries: Entry[] = [];
  while (p.digitFollows()) {
    const start = p.unsigned();
    const count = p.unsigned();
    if (start + count > limits.objectNumber) throw giveUp('object number over the limit');
    if (!fixedWidthEntries(p, start, count, entries))
      for (let i = 0; i < count; i++) entries.push(tableEntry(p, start + i));
  }
  p.expectKeyword('trailer');
  const trailer = p.value();
  if (!isDict(trailer)) throw giveUp('trailer is not a dictionary');
  return { entries, trailer };
}

const ENTRY_BYTES = 20;

/**
 * The common case without tokens: entries of exactly 20 bytes (`oooooooooo ggggg n` and a two-byte end of line).
 * False, with nothing read, when the subsection is written any other way.
 */
function fixedWidthEntries(p: Parser, start: number, count: number, into: Entry[]): boolean {
  p.skipSpace();
  const buf = p.buf;
  const at = p.pos;
  if (at + count * ENTRY_BYTES > buf.length) return false;
  const parsed: Entry[] = [];
  for (let i = 0; i < count; i++) {
    const e = at + i * ENTRY_BYTES;
    const kind = buf[e + 17];
    if (buf[e + 10] !== 0x20 || buf[e + 16] !== 0x20 || (kind !== 0x6e && kind !== 0x66)) return false;
    if (!isSpace(buf[e + 18]!) || !isSpace(buf[e + 19]!)) return false;
    const offset = digits(buf, e, 10);
    const gen = digits(buf, e + 11, 5);
    if (offset < 0 || gen < 0) return false;
    parsed.push(kind === 0x6e ? [start + i, OFFSET, offset, gen] : [start + i, FREE, 0, 0]);
  }
  for (const e of parsed) into.push(e);
  p.pos = at + count * ENTRY_BYTES;
  return true;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d;

/** The value of `n` decimal digits, or -1 if one is not a digit. */
function digits(buf: Buffer, from: number, n: number): number {
  let v = 0;
  for (let i = from; i < from + n; i++) {
    const d = buf[i]! - 0x30;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

function tableEntry(p: Parser, num: number): Entry {
  const offset = p.unsigned();
  const gen = p.unsigned();
  const kind = p.keyword();
  if (gen > 0xffff) throw giveUp('generation out of range');
  if (kind === 'n') return [num, OFFSET, offset, gen];
  if (kind === 'f') return [num, FREE, 0, 0];
  throw giveUp('bad xref table entry');
}

function readXrefStream(file: RandomAccessFile, at: number, budget: Budget): Section {
  const obj = parseAt(file, at, (p) => parseIndirect(p, at));
  const s = obj.value;
  if (!(s instanceof PdfStream) || s.dict.get('Type') !== 'XRef')
    throw giveUp('startxref points to neither a table nor an xref stream');
  // Its dictionary must hold direct values: nothing can be looked up before the xref is read.
  const length = s.dict.get('Length');
  if (typeof length !== 'number') throw giveUp('xref stream /Length is not a direct integer');
  const data = decodeStream(rawStreamData(file, s, length), s.dict.get('Filter'), s.dict.get('DecodeParms'), budget);
  budget.countObject();
  return { entries: xrefStreamEntries(s.dict, data), trailer: s.dict };
}

function fieldWidths(dict: PdfDict): [number, number, number] {
  const w = dict.get('W');
  if (!Array.isArray(w) || w.length !== 3) throw giveUp('bad xref stream /W');
  const ok = w.every((x, i) => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= (i === 1 ? 6 : 4));
  if (!ok || w[1] === 0) throw giveUp('unsupported xref stream /W');
  return w as [number, number, number];
}

/** /Index as [first, count] pairs (default: all of /Size). */
function subsections(dict: PdfDict): Array<[number, number]> {
  const size = dict.get('Size');
  const index = dict.get('Index') ?? [0, size ?? null];
  const ok =
    Array.isArray(index) &&
    index.length % 2 === 0 &&
    index.every((x) => typeof x === 'number' && Number.isInteger(x) && x >= 0);
  if (!ok) throw giveUp('bad xref stream /Index');
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < index.length; i += 2) pairs.push([index[i] as number, index[i + 1] as number]);
  return pairs;
}

function xrefStreamEntries(dict: PdfDict, data: Buffer): Entry[] {
  const [w1, w2, w3] = fieldWidths(dict);
  const row = w1 + w2 + w3;
  const pairs = subsections(dict);
  const rows = pairs.reduce((n, [, count]) => n + count, 0);
  if (rows > limits.objectNumber) throw giveUp('object number over the limit');
  if (rows * row > data.length) throw giveUp('xref stream shorter than its /Index');
  const entries: Entry[] = [];
  let pos = 0;
  const field = (width: number, fallback: number) => {
    if (width === 0) return fallback;
    let v = 0;
    for (let i = 0; i < width; i++) v = v * 256 + data[pos++]!;
    return v;
  };
  for (const [first, count] of pairs) {
    for (let i = 0; i < count; i++) {
      const type = field(w1, 1);
      const f2 = field(w2, 0);
      const f3 = field(w3, 0);
      // Type 0 is free; unknown types are references to null (PDF 32000 7.5.8.3): free as well.
      entries.push(
        type === 1
          ? [first + i, OFFSET, f2, f3]
          : type === 2
            ? [first + i, COMPRESSED, f2, f3]
            : [first + i, FREE, 0, 0],
      );
    }
  }
  return entries;
}
