import { giveUp } from './limits';

/** A number written with a decimal point: kept apart from integers, since readers ignore a real where an integer belongs (/Rotate). */
export class Real {
  constructor(readonly value: number) {}
}

export class PdfString {
  constructor(readonly bytes: Buffer) {}
}

/** The buffer ended inside something that continues in the file: read a larger window and parse again. */
export class NeedMore extends Error {}

export const CR = 0x0d;
export const LF = 0x0a;

/** 1: white space, 2: delimiter, 0: regular character. */
const charClass = new Uint8Array(256);
for (const c of [0x00, 0x09, LF, 0x0c, CR, 0x20]) charClass[c] = 1;
for (const c of '()<>[]{}/%') charClass[c.charCodeAt(0)] = 2;

/** What a skipped array or dictionary needs to see: brackets, strings and comments. */
const structural = new Uint8Array(256);
for (const c of '[]<>(%') structural[c.charCodeAt(0)] = 1;

export const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
export const isRegular = (c: number) => charClass[c] === 0;
const hexValue = (c: number) =>
  isDigit(c) ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;

const escapes: Record<number, number> = { 0x6e: LF, 0x72: CR, 0x74: 0x09, 0x62: 0x08, 0x66: 0x0c };

/**
 * Names and keywords repeat all through a file (/Type, /Page, /Parent…): each distinct short token is built once
 * and reused, which spares slicing a Buffer and hashing a new string for every dictionary key.
 */
const tokens = new Map<number, string>();
const MAX_TOKENS = 4096;

/** The token of `buf[start, end)`, whose hash `scanToken` took while finding its end. */
function intern(buf: Buffer, start: number, end: number, hash: number): string {
  if (end - start > 32) return buf.toString('latin1', start, end);
  const known = tokens.get(hash);
  if (known !== undefined && sameBytes(known, buf, start, end)) return known;
  const token = buf.toString('latin1', start, end);
  if (tokens.size >= MAX_TOKENS) tokens.clear();
  tokens.set(hash, token);
  return token;
}

function sameBytes(s: string, buf: Buffer, start: number, end: number): boolean {
  if (s.length !== end - start) return false;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) !== buf[start + i]) return false;
  return true;
}

/** `#xx` in a name is the byte xx; a `#` not followed by two hex digits stays as it is. */
function decodeName(raw: Buffer): string {
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const hi = raw[i] === 0x23 && i + 2 < raw.length ? hexValue(raw[i + 1]!) : -1;
    const lo = hi >= 0 ? hexValue(raw[i + 2]!) : -1;
    if (lo >= 0) {
      bytes.push(hi * 16 + lo);
      i += 2;
    } else bytes.push(raw[i]!);
  }
  return Buffer.from(bytes).toString('latin1');
}

/**
 * The tokens of PDF syntax over one buffer. `complete` says whether the buffer ends where the data ends (an object
 * stream, or a window reaching the end of the file): running off a window that is not complete throws NeedMore.
 * The loops keep the buffer and position in locals: a scan spends most of its time here.
 */
export class Lexer {
  /** Set by `scanToken`: the hash of the token it passed over, and whether the token holds a `#`. */
  private tokenHash = 0;
  private tokenEscaped = false;

  constructor(
    readonly buf: Buffer,
    public pos: number,
    protected readonly complete: boolean,
  ) {}

  /** Whether the data ends here; throws NeedMore when only the window does. */
  atEnd(): boolean {
    if (this.pos < this.buf.length) return false;
    if (this.complete) return true;
    throw new NeedMore();
  }

  /** The byte `ahead` of the position, or undefined at the end of the data. */
  peek(ahead: number): number | undefined {
    const at = this.pos + ahead;
    if (at < this.buf.length) return this.buf[at];
    if (this.complete) return undefined;
    throw new NeedMore();
  }

  /** White space and comments. */
  skipSpace(): void {
    const buf = this.buf;
    const len = buf.length;
    let pos = this.pos;
    for (;;) {
      while (pos < len && charClass[buf[pos]!] === 1) pos++;
      if (pos >= len || buf[pos] !== 0x25) break;
      while (pos < len && buf[pos] !== LF && buf[pos] !== CR) pos++;
    }
    this.pos = pos;
    if (pos >= len && !this.complete) throw new NeedMore();
  }

  /** The next regular token (a keyword such as `obj`, `R`, `trailer`); empty when a delimiter or the end follows. */
  keyword(): string {
    this.skipSpace();
    const start = this.pos;
    this.pos = this.scanToken(start);
    return intern(this.buf, start, this.pos, this.tokenHash);
  }

  expectKeyword(word: string): void {
    if (this.keyword() !== word) throw giveUp(`expected "${word}"`);
  }

  /** A non-negative integer (object numbers, offsets, counts). */
  unsigned(): number {
    this.skipSpace();
    const v = this.atEnd() ? null : this.number();
    if (typeof v !== 'number' || v < 0) throw giveUp('expected a non-negative integer');
    return v;
  }

  /** Whether the next token starts with a digit (an xref subsection rather than `trailer`). */
  digitFollows(): boolean {
    this.skipSpace();
    return !this.atEnd() && isDigit(this.buf[this.pos]!);
  }

  /** At a slash: the name, without it. */
  name(): string {
    const start = ++this.pos;
    const end = (this.pos = this.scanToken(start));
    return this.tokenEscaped ? decodeName(this.buf.subarray(start, end)) : intern(this.buf, start, end, this.tokenHash);
  }

  /** At a slash: pass over the name. */
  skipName(): void {
    this.pos = this.regularEnd(this.pos + 1);
  }

  /**
   * At a digit, sign or point: a number, read the way poppler reads it, since box coordinates must come out as the
   * very doubles pdfinfo prints: digits after the point are summed with a running scale (not rounded once), and a
   * minus sign among them is ignored.
   */
  number(): number | Real {
    const buf = this.buf;
    const len = buf.length;
    let pos = this.pos;
    const negative = buf[pos] === 0x2d;
    if (negative || buf[pos] === 0x2b) pos++;
    let int = 0;
    const digitsFrom = pos;
    while (pos < len && isDigit(buf[pos]!)) int = int * 10 + buf[pos++]! - 0x30;
    const digits = pos - digitsFrom;
    if (pos < len && buf[pos] === 0x2e) {
      this.pos = pos + 1;
      return new Real(this.fraction(int, negative));
    }
    this.pos = pos;
    if (pos >= len && !this.complete) throw new NeedMore();
    if (digits === 0) throw giveUp('malformed number');
    // Beyond 2^53 an integer is not exact: no valid structure needs one.
    if (!Number.isSafeInteger(int)) throw giveUp('integer out of range');
    return negative ? -int : int;
  }

  private fraction(int: number, negative: boolean): number {
    const buf = this.buf;
    const len = buf.length;
    let pos = this.pos;
    let value = int;
    let scale = 0.1;
    for (; pos < len; pos++) {
      const c = buf[pos]!;
      if (c === 0x2d) continue;
      if (!isDigit(c)) break;
      value = value + scale * (c - 0x30);
      scale *= 0.1;
    }
    this.pos = pos;
    if (pos >= len && !this.complete) throw new NeedMore();
    return negative ? -value : value;
  }

  /** At `(`: the string, with nested parentheses and escapes. */
  literalString(): PdfString {
    this.pos++;
    const out: number[] = [];
    let depth = 1;
    for (;;) {
      if (this.atEnd()) throw giveUp('unterminated string');
      const c = this.buf[this.pos++]!;
      if (c === 0x28) depth++;
      else if (c === 0x29 && --depth === 0) return new PdfString(Buffer.from(out));
      if (c === 0x5c) this.escape(out);
      else out.push(c);
    }
  }

  /** After a backslash: the escaped byte, an octal code, or a line continuation. */
  private escape(out: number[]): void {
    if (this.atEnd()) throw giveUp('unterminated string');
    const c = this.buf[this.pos++]!;
    if (c >= 0x30 && c <= 0x37) {
      let code = c - 0x30;
      for (let i = 0; i < 2; i++) {
        const d = this.peek(0);
        if (d === undefined || d < 0x30 || d > 0x37) break;
        code = code * 8 + d - 0x30;
        this.pos++;
      }
      out.push(code & 0xff);
    } else if (c === CR) {
      if (this.peek(0) === LF) this.pos++;
    } else if (c !== LF) out.push(escapes[c] ?? c);
  }

  /** At `<` (not `<<`): the hex string; an odd last digit counts as followed by 0. */
  hexString(): PdfString {
    this.pos++;
    const out: number[] = [];
    let half = -1;
    for (;;) {
      if (this.atEnd()) throw giveUp('unterminated hex string');
      const c = this.buf[this.pos++]!;
      if (c === 0x3e) break;
      if (charClass[c] === 1) continue;
      const v = hexValue(c);
      if (v < 0) throw giveUp('bad character in hex string');
      if (half < 0) half = v;
      else {
        out.push(half * 16 + v);
        half = -1;
      }
    }
    if (half >= 0) out.push(half * 16);
    return new PdfString(Buffer.from(out));
  }

  /**
   * At `[` or `<<`: pass over the whole array or dictionary by its bytes, minding only brackets, strings and
   * comments: a page's resources are skipped in one pass rather than token by token.
   */
  skipContainer(maxDepth: number): void {
    const buf = this.buf;
    const len = buf.length;
    const closers: number[] = [];
    let pos = this.pos;
    do {
      while (pos < len && !structural[buf[pos]!]) pos++;
      if (pos + 1 >= len && !this.complete) throw new NeedMore();
      if (pos >= len) throw giveUp('unterminated array or dictionary');
      const c = buf[pos]!;
      const pair = (c === 0x3c || c === 0x3e) && buf[pos + 1] === c;
      if (c === 0x5b || (c === 0x3c && pair)) {
        if (closers.length >= maxDepth) throw giveUp('objects nested too deeply');
        closers.push(c === 0x5b ? 0x5d : 0x3e);
        pos += pair ? 2 : 1;
      } else if (c === 0x5d || c === 0x3e) {
        if (closers.pop() !== c || (c === 0x3e && !pair)) throw giveUp('mismatched brackets');
        pos += pair ? 2 : 1;
      } else if (c === 0x28 || c === 0x3c || c === 0x25) {
        this.pos = pos;
        this.skipDelimited(c);
        pos = this.pos;
      }
    } while (closers.length > 0);
    this.pos = pos;
  }

  /** At a literal string, a hex string or a comment: past it. */
  private skipDelimited(c: number): void {
    if (c === 0x28) this.literalString();
    else if (c === 0x3c) this.hexString();
    else this.skipSpace();
  }

  /** The end of the regular characters from `from`, hashing them on the way (one pass for the token cache). */
  private scanToken(from: number): number {
    const buf = this.buf;
    const len = buf.length;
    let pos = from;
    let hash = 0;
    let escaped = false;
    for (; pos < len; pos++) {
      const c = buf[pos]!;
      if (charClass[c] !== 0) break;
      hash = (Math.imul(hash, 31) + c) | 0;
      escaped ||= c === 0x23;
    }
    if (pos >= len && !this.complete) throw new NeedMore();
    this.tokenHash = (hash + pos - from) | 0;
    this.tokenEscaped = escaped;
    return pos;
  }

  private regularEnd(from: number): number {
    const buf = this.buf;
    const len = buf.length;
    let pos = from;
    while (pos < len && charClass[buf[pos]!] === 0) pos++;
    if (pos >= len && !this.complete) throw new NeedMore();
    return pos;
  }
}
