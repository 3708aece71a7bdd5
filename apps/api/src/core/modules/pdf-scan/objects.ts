import { isDigit, isRegular, Lexer, LF, CR, PdfString, Real } from './lexer';
import type { KeySet } from './keys';
import { giveUp, limits } from './limits';

export { NeedMore, PdfString, Real } from './lexer';

/** An indirect reference `num gen R`. */
export class Ref {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}

/** One number per object and generation, for maps keyed by reference (generations are below 65536). */
export const refKey = (ref: Ref): number => ref.num * 0x10000 + ref.gen;

/** A stream: its dictionary and where its data starts in the file (read only when needed). */
export class PdfStream {
  constructor(
    readonly dict: PdfDict,
    readonly dataOffset: number,
  ) {}
}

/** Names are plain strings, without the slash and with #xx escapes decoded. */
export type PdfValue = null | boolean | number | Real | string | PdfString | PdfValue[] | PdfDict | Ref | PdfStream;
export type PdfDict = Map<string, PdfValue>;

export const isDict = (v: PdfValue | undefined): v is PdfDict => v instanceof Map;

const constants = new Map<string, PdfValue>([
  ['true', true],
  ['false', false],
  ['null', null],
]);

const isNumberStart = (c: number) => isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e;

/**
 * PDF objects from tokens. `keep`: the entries built in a top-level dictionary (and in the dictionaries it names);
 * the others are passed over, checked but not built.
 */
export class Parser extends Lexer {
  constructor(
    buf: Buffer,
    pos: number,
    complete: boolean,
    private readonly keep?: KeySet,
  ) {
    super(buf, pos, complete);
  }

  value(depth = 0, keep: KeySet | undefined = depth === 0 ? this.keep : undefined): PdfValue {
    if (depth > limits.depth) throw giveUp('objects nested too deeply');
    this.skipSpace();
    if (this.atEnd()) throw giveUp('unexpected end of data');
    const c = this.buf[this.pos]!;
    if (c === 0x2f) return this.name();
    if (c === 0x5b) return this.array(depth);
    if (c === 0x3c) return this.peek(1) === 0x3c ? this.dict(depth, keep) : this.hexString();
    if (c === 0x28) return this.literalString();
    if (isNumberStart(c)) return this.numberOrRef();
    const word = this.keyword();
    const constant = constants.get(word);
    if (constant === undefined)
      throw giveUp(word ? `unexpected keyword "${word.slice(0, 20)}"` : 'unexpected character');
    return constant;
  }

  private array(depth: number): PdfValue[] {
    this.pos++;
    const items: PdfValue[] = [];
    while (!this.closes(0x5d)) items.push(this.value(depth + 1, undefined));
    return items;
  }

  private dict(depth: number, keep: KeySet | undefined): PdfDict {
    this.pos += 2;
    const d: PdfDict = new Map();
    while (!this.closes(0x3e)) {
      if (this.buf[this.pos] !== 0x2f) throw giveUp('dictionary key is not a name');
      const key = this.name();
      const sub = keep?.get(key);
      if (keep && sub === undefined) {
        this.skip(depth + 1);
        continue;
      }
      // Readers disagree on which of two equal keys wins: leave such files to the tools.
      if (d.has(key)) throw giveUp('duplicate dictionary key');
      d.set(key, this.value(depth + 1, sub === true ? undefined : sub));
    }
    return d;
  }

  /** Past white space: whether an array (`]`) or a dictionary (`>>`) ends here, and if so, past its end. */
  private closes(bracket: 0x5d | 0x3e): boolean {
    this.skipSpace();
    if (this.atEnd()) throw giveUp('unterminated array or dictionary');
    if (this.buf[this.pos] !== bracket) return false;
    if (bracket === 0x3e && this.peek(1) !== 0x3e) throw giveUp('malformed dictionary end');
    this.pos += bracket === 0x3e ? 2 : 1;
    return true;
  }

  /** Pass over a value without building it. */
  private skip(depth: number): void {
    if (depth > limits.depth) throw giveUp('objects nested too deeply');
    this.skipSpace();
    if (this.atEnd()) throw giveUp('unexpected end of data');
    const c = this.buf[this.pos]!;
    if (c === 0x2f) this.skipName();
    else if (c === 0x5b || (c === 0x3c && this.peek(1) === 0x3c)) this.skipContainer(limits.depth - depth);
    else if (c === 0x3c) this.hexString();
    else if (c === 0x28) this.literalString();
    else if (isNumberStart(c)) this.numberOrRef();
    else if (!constants.has(this.keyword())) throw giveUp('unexpected keyword');
  }

  private numberOrRef(): PdfValue {
    const n = this.number();
    if (typeof n !== 'number' || n < 0) return n;
    const save = this.pos;
    const gen = this.refTail();
    if (gen !== null) return new Ref(n, gen);
    this.pos = save;
    return n;
  }

  /** ` gen R` after an object number, or null (position unspecified) when something else follows. */
  private refTail(): number | null {
    this.skipSpace();
    const buf = this.buf;
    const from = this.pos;
    let pos = from;
    let gen = 0;
    // Digits only, without building a number: most integers are not followed by a reference's tail.
    while (pos < buf.length && isDigit(buf[pos]!)) gen = gen * 10 + buf[pos++]! - 0x30;
    if (pos === from) return null;
    this.pos = pos;
    const next = this.peek(0);
    if (next !== undefined && isRegular(next)) return null;
    this.skipSpace();
    if (this.atEnd() || buf[this.pos] !== 0x52) return null; // R
    const after = this.peek(1);
    if (after !== undefined && isRegular(after)) return null;
    this.pos++;
    return gen;
  }
}

/** One `num gen obj … endobj` (or `… stream`). */
export interface IndirectObject {
  num: number;
  gen: number;
  value: PdfValue;
}

/** `base` is the file offset of the parser's buf[0], for the data offset of a stream. */
export function parseIndirect(p: Parser, base: number): IndirectObject {
  const num = p.unsigned();
  const gen = p.unsigned();
  p.expectKeyword('obj');
  return parseIndirectTail(p, num, gen, base);
}

/** The value after `num gen obj` and what closes it. */
function parseIndirectTail(p: Parser, num: number, gen: number, base: number): IndirectObject {
  const value = p.value();
  const word = p.keyword();
  if (word === 'endobj') return { num, gen, value };
  if (word !== 'stream' || !isDict(value)) throw giveUp('object not closed by endobj');
  // The data starts after the end of line that follows the keyword (CRLF or LF; a lone CR is tolerated).
  if (p.atEnd()) throw giveUp('stream without data');
  if (p.buf[p.pos] === CR) p.pos++;
  if (!p.atEnd() && p.buf[p.pos] === LF) p.pos++;
  return { num, gen, value: new PdfStream(value, base + p.pos) };
}

/** Where an indirect object's value lies, and for a stream its dictionary (the parser's `keep` entries) and data. */
export interface IndirectExtent {
  num: number;
  gen: number;
  start: number;
  end: number;
  stream?: PdfStream;
}

/**
 * As `parseIndirect`, but an array or a dictionary is passed over by its bytes, not built: for copying an object as
 * written. A stream's dictionary is then built, for its /Length.
 */
export function indirectExtent(p: Parser, base: number): IndirectExtent {
  const num = p.unsigned();
  const gen = p.unsigned();
  p.expectKeyword('obj');
  const start = valueExtent(p);
  const end = p.pos;
  const word = p.keyword();
  if (word === 'endobj') return { num, gen, start, end };
  p.pos = start;
  const obj = parseIndirectTail(p, num, gen, base);
  if (!(obj.value instanceof PdfStream)) throw giveUp('object not closed by endobj');
  return { num, gen, start, end, stream: obj.value };
}

/** Past the value at the parser's position, building it only if it is not an array or a dictionary; its start. */
export function valueExtent(p: Parser): number {
  p.skipSpace();
  const start = p.pos;
  const c = p.buf[start];
  if (c === 0x5b || (c === 0x3c && p.peek(1) === 0x3c)) p.skipContainer(limits.depth);
  else p.value();
  return start;
}
