import { parseAt, rawStreamData } from './file-objects';
import { scannedKeys, type KeySet } from './keys';
import { Budget, giveUp, limits } from './limits';
import {
  indirectExtent,
  parseIndirect,
  Parser,
  PdfStream,
  Ref,
  refKey,
  valueExtent,
  type PdfDict,
  type PdfValue,
} from './objects';
import { RandomAccessFile } from './reader';
import { refSpans, type RefSpan } from './ref-spans';
import { decodeStream } from './streams';
import { readCrossReference, type XrefTable } from './xref';

/** What a copy reads of a stream's dictionary (`streamExtent`). */
const STREAM_KEYS: KeySet = new Map([
  ['Length', true],
  ['Filter', true],
]);

/** A decoded object stream: its data and where each of its objects starts. */
interface ObjectStream {
  data: Buffer;
  nums: number[];
  offsets: number[];
}

/** An object as written, to be copied: its value's bytes with the references in them. */
export interface RawObject {
  /** The value's bytes (a stream's: its dictionary's). */
  body: Buffer;
  refs: RefSpan[];
  /** A stream's undecoded data, checked as `streamExtent` checks it. */
  stream?: { offset: number; length: number };
}

/**
 * A PDF opened for reading its structure: objects are fetched by reference through the cross-reference, from the
 * file or from object streams, and kept once read. Every object's header is checked against the reference: an
 * xref pointing elsewhere is a damaged file, for the tools to reconstruct.
 *
 * Reads are synchronous and may throw NeedBytes: run them inside `step()`.
 */
export class PdfDocument {
  /** By number and generation (num * 65536 + gen). */
  private readonly objects = new Map<number, PdfValue>();
  private readonly objectStreams = new Map<number, ObjectStream>();
  /** Objects being read: one met again while reading itself (a /Length inside its own stream) is a loop. */
  private readonly reading = new Set<number>();

  private constructor(
    private readonly file: RandomAccessFile,
    private readonly xref: XrefTable,
    readonly trailer: PdfDict,
    private readonly budget: Budget,
    private readonly keys: KeySet,
  ) {}

  /** `keys`: the entries its objects are read with (see KeySet); the default is what every scan reads. */
  static async open(path: string, keys: KeySet = scannedKeys): Promise<PdfDocument> {
    const file = await RandomAccessFile.open(path);
    try {
      const budget = new Budget();
      const { table, trailer } = await readCrossReference(file, budget);
      return new PdfDocument(file, table, trailer, budget, keys);
    } catch (err) {
      await file.close();
      throw err;
    }
  }

  close(): Promise<void> {
    return this.file.close();
  }

  /** Run reads until the bytes they need are loaded; `read` must change nothing before its reads succeed. */
  step<T>(read: () => T): Promise<T> {
    return this.file.step(read);
  }

  /** The value itself, references followed. */
  resolve(v: PdfValue | undefined): PdfValue | undefined {
    for (let hops = 0; v instanceof Ref; hops++) {
      if (hops >= limits.refHops) throw giveUp('chain of references too long');
      v = this.fetch(v);
    }
    return v;
  }

  private fetch(ref: Ref): PdfValue {
    if (ref.gen > 0xffff) throw giveUp('generation out of range');
    const key = refKey(ref);
    const cached = this.objects.get(key);
    if (cached !== undefined) return cached;
    if (this.reading.has(ref.num)) throw giveUp('object refers to itself');
    this.reading.add(ref.num);
    try {
      const value = this.load(ref);
      this.budget.countObject();
      this.objects.set(key, value);
      return value;
    } finally {
      this.reading.delete(ref.num);
    }
  }

  private load(ref: Ref): PdfValue {
    const entry = this.xref.get(ref.num);
    // A missing object reads as null; in a page tree that only comes from damage the tools can judge better.
    if (!entry || entry.type === 'free') throw giveUp('reference to a missing object');
    if (entry.type === 'compressed') {
      const { os, at } = this.inObjectStream(ref, entry);
      return new Parser(os.data, at, true, this.keys).value();
    }
    const obj = parseAt(this.file, entry.offset, (p) => parseIndirect(p, entry.offset), this.keys);
    checkHeader(obj, ref, entry.gen);
    return obj.value;
  }

  /**
   * The object `ref` names as written, for a copy of it; not built (but a stream's /Length) and not cached. A missing
   * object gives up, as `resolve` does.
   */
  rawObject(ref: Ref): RawObject {
    const entry = this.xref.get(ref.num);
    if (!entry || entry.type === 'free') throw giveUp('reference to a missing object');
    this.budget.countObject();
    if (entry.type === 'compressed') {
      const { os, at } = this.inObjectStream(ref, entry);
      const p = new Parser(os.data, at, true);
      const start = valueExtent(p);
      return { body: os.data.subarray(start, p.pos), refs: refSpans(os.data, start, p.pos) };
    }
    const { obj, refs, body } = parseAt(
      this.file,
      entry.offset,
      (p) => {
        const o = indirectExtent(p, entry.offset);
        return { obj: o, refs: refSpans(p.buf, o.start, o.end), body: p.buf.subarray(o.start, o.end) };
      },
      STREAM_KEYS,
    );
    checkHeader(obj, ref, entry.gen);
    if (!obj.stream) return { body, refs };
    const { offset, length } = this.streamExtent(obj.stream);
    return { body, refs, stream: { offset, length } };
  }

  /** The object stream holding `ref`, and where the object starts in its data. */
  private inObjectStream(ref: Ref, entry: { stream: number; index: number }): { os: ObjectStream; at: number } {
    if (ref.gen !== 0) throw giveUp('generation mismatch');
    const os = this.objectStream(entry.stream);
    if (entry.index >= os.nums.length || os.nums[entry.index] !== ref.num)
      throw giveUp('object stream does not hold the object');
    return { os, at: os.offsets[entry.index]! };
  }

  private objectStream(num: number): ObjectStream {
    let os = this.objectStreams.get(num);
    if (!os) {
      const s = this.resolve(new Ref(num, 0));
      if (!(s instanceof PdfStream) || s.dict.get('Type') !== 'ObjStm') throw giveUp('not an object stream');
      os = parseObjectStreamHeader(s.dict, this.streamData(s));
      this.objectStreams.set(num, os);
    }
    return os;
  }

  /**
   * Where a stream's undecoded data lies and its resolved /Filter, checked as `streamData` checks it (the data is
   * followed by `endstream`), without reading the data: for streams only measured (content-size.ts).
   */
  streamExtent(s: PdfStream): { offset: number; length: number; filter: PdfValue | undefined } {
    const length = this.resolve(s.dict.get('Length'));
    if (typeof length !== 'number') throw giveUp('stream /Length is not an integer');
    const end = s.dataOffset + length;
    if (!Number.isSafeInteger(length) || length < 0 || end > this.file.size)
      throw giveUp('stream length outside the file');
    // A wrong /Length is a damaged file: the tools recover it by searching for endstream, this scan does not.
    if (parseAt(this.file, end, (p) => p.keyword()) !== 'endstream') throw giveUp('stream not followed by endstream');
    return { offset: s.dataOffset, length, filter: this.resolve(s.dict.get('Filter')) };
  }

  /** `length` bytes of the file at `offset`, in parts, read outside the cache (see RandomAccessFile.range). */
  range(offset: number, length: number): AsyncGenerator<Buffer> {
    return this.file.range(offset, length);
  }

  /** `length` bytes at `offset` of a file in memory (`inMemory`); of another, throws NeedBytes unless cached. */
  bytes(offset: number, length: number): Buffer {
    return this.file.bytes(offset, length);
  }

  /** Whether the whole file is in memory (reads never wait). */
  get inMemory(): boolean {
    return this.file.inMemory;
  }

  /** A stream's decoded data (decoded last: nothing after it may need bytes, so a step never inflates twice). */
  private streamData(s: PdfStream): Buffer {
    const length = this.resolve(s.dict.get('Length'));
    if (typeof length !== 'number') throw giveUp('stream /Length is not an integer');
    const filter = this.resolve(s.dict.get('Filter'));
    const parms = this.resolve(s.dict.get('DecodeParms'));
    return decodeStream(rawStreamData(this.file, s, length), filter, parms, this.budget);
  }
}

/** An object's `num gen obj` must be the one the cross-reference names: else the xref is damaged. */
function checkHeader(obj: { num: number; gen: number }, ref: Ref, xrefGen: number): void {
  if (obj.num !== ref.num || obj.gen !== ref.gen || xrefGen !== ref.gen)
    throw giveUp('xref offset points to another object');
}

/** /N pairs of `number offset` before /First; offsets count from /First. */
function parseObjectStreamHeader(dict: PdfDict, data: Buffer): ObjectStream {
  const n = dict.get('N');
  const first = dict.get('First');
  if (typeof n !== 'number' || typeof first !== 'number' || n < 0 || first < 0 || first > data.length) {
    throw giveUp('bad object stream header');
  }
  if (n > limits.objects) throw giveUp('too many objects');
  const header = new Parser(data.subarray(0, first), 0, true);
  const nums: number[] = [];
  const offsets: number[] = [];
  for (let i = 0; i < n; i++) {
    nums.push(header.unsigned());
    const at = first + header.unsigned();
    if (at >= data.length) throw giveUp('object stream offset outside its data');
    offsets.push(at);
  }
  return { data, nums, offsets };
}
