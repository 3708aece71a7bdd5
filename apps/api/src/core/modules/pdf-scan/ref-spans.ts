import { giveUp } from './limits';
import { Ref } from './objects';

/** A reference inside an object's bytes: where its tokens (`num gen R`) start and end. */
export interface RefSpan {
  start: number;
  end: number;
  ref: Ref;
}

const WHITE = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WHITE[c] = 1;
const DELIMITER = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIMITER[c.charCodeAt(0)] = 1;

const UNSIGNED = 1;
const SIGNED = 2;
const OTHER = 3;

/**
 * Every reference in `buf[start, end)`, a whole value, with offsets from `start`: one pass over the bytes that builds nothing, for copying an
 * object with its references renumbered. Strings, names and comments are passed over; a reference is an unsigned
 * integer, an unsigned integer and `R`, as readers take it. A signed integer where a reader could take it for an
 * object number gives up: a copy must renumber every reference, or it would point into the wrong file.
 */
export function refSpans(buf: Buffer, start: number, end: number): RefSpan[] {
  const spans: RefSpan[] = [];
  // The last two regular tokens since a delimiter: kind, value and start of the older (1) and the newer (2).
  let k1 = 0;
  let v1 = 0;
  let s1 = 0;
  let k2 = 0;
  let v2 = 0;
  let s2 = 0;
  let pos = start;
  while (pos < end) {
    const c = buf[pos]!;
    if (WHITE[c]) {
      pos++;
      continue;
    }
    if (c === 0x25) {
      while (pos < end && buf[pos] !== 0x0a && buf[pos] !== 0x0d) pos++;
      continue;
    }
    if (DELIMITER[c]) {
      k1 = k2 = 0;
      if (c === 0x28) pos = pastLiteralString(buf, pos, end);
      else if (c === 0x3c && buf[pos + 1] !== 0x3c) pos = pastHexString(buf, pos, end);
      else if (c === 0x2f) pos = regularEnd(buf, pos + 1, end);
      else pos += (c === 0x3c || c === 0x3e) && buf[pos + 1] === c ? 2 : 1;
      continue;
    }
    const from = pos;
    pos = regularEnd(buf, pos, end);
    if (pos - from === 1 && c === 0x52 && k1 && k2) {
      // `a b R`: a reference if both are object numbers.
      if (k1 === UNSIGNED && k2 === UNSIGNED) {
        if (v2 > 0xffff) throw giveUp('generation out of range');
        spans.push({ start: s1 - start, end: pos - start, ref: new Ref(v1, v2) });
      } else if (k1 !== OTHER && k2 !== OTHER) throw giveUp('signed integer as an object number');
      k1 = k2 = 0;
      continue;
    }
    const [kind, value] = integer(buf, from, pos);
    k1 = k2;
    v1 = v2;
    s1 = s2;
    k2 = kind;
    v2 = value;
    s2 = from;
  }
  return spans;
}

/** An integer token's kind and value (OTHER for anything else: reals, keywords). */
function integer(buf: Buffer, from: number, to: number): [number, number] {
  let at = from;
  const signed = buf[at] === 0x2b || buf[at] === 0x2d;
  if (signed) at++;
  if (at === to) return [OTHER, 0];
  let value = 0;
  for (; at < to; at++) {
    const d = buf[at]! - 0x30;
    if (d < 0 || d > 9) return [OTHER, 0];
    value = value * 10 + d;
  }
  if (!Number.isSafeInteger(value)) return [OTHER, 0];
  return [signed ? SIGNED : UNSIGNED, value];
}

function regularEnd(buf: Buffer, pos: number, end: number): number {
  while (pos < end && !WHITE[buf[pos]!] && !DELIMITER[buf[pos]!]) pos++;
  return pos;
}

/** Past `(…)`, with nested parentheses and backslash escapes. */
function pastLiteralString(buf: Buffer, pos: number, end: number): number {
  let depth = 0;
  for (; pos < end; pos++) {
    const c = buf[pos]!;
    if (c === 0x5c) pos++;
    else if (c === 0x28) depth++;
    else if (c === 0x29 && --depth === 0) return pos + 1;
  }
  throw giveUp('unterminated string');
}

function pastHexString(buf: Buffer, pos: number, end: number): number {
  const close = buf.indexOf(0x3e, pos);
  if (close < 0 || close >= end) throw giveUp('unterminated hex string');
  return close + 1;
}
