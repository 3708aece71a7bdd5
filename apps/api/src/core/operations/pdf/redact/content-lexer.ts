/**
 * A content stream as operations (operands, then their operator), enough to rewrite text showing and read the
 * drawing state; every other operation goes back out as it came, byte for byte.
 */

export type Operand =
  | { kind: 'number'; value: number }
  | { kind: 'string'; bytes: Uint8Array }
  | { kind: 'name'; value: string }
  | { kind: 'array'; items: Operand[] }
  | { kind: 'raw'; text: string }; // dictionaries, booleans, null: kept as written

export interface Operation {
  operator: string;
  operands: Operand[];
  /** The operation as it was written (operands and operator): written back unchanged when not rewritten. */
  source: string;
}

const WHITE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIM = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);

export class ContentSyntaxError extends Error {}

/** Tokenise a decoded content stream (bytes read as Latin-1 so each char is one byte). */
export function parseContent(data: Uint8Array): Operation[] {
  const s = Buffer.from(data).toString('latin1');
  const ops: Operation[] = [];
  let i = 0;
  let stack: Operand[] = [];
  let start = 0;

  const skipWhite = () => {
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (WHITE.has(c)) i++;
      else if (c === 0x25) {
        while (i < s.length && s[i] !== '\n' && s[i] !== '\r') i++;
      } else break;
    }
  };

  const literal = (): Uint8Array => {
    i++; // (
    const out: number[] = [];
    let depth = 1;
    while (i < s.length) {
      const c = s[i++]!;
      if (c === '\\') {
        const n = s[i++];
        if (n === undefined) break;
        const esc: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };
        if (n in esc) out.push(esc[n]!);
        else if (n >= '0' && n <= '7') {
          let oct = n;
          while (oct.length < 3 && s[i]! >= '0' && s[i]! <= '7') oct += s[i++];
          out.push(parseInt(oct, 8) & 0xff);
        } else if (n === '\r') {
          if (s[i] === '\n') i++;
        } else if (n !== '\n') out.push(n.charCodeAt(0));
      } else if (c === '(') {
        depth++;
        out.push(40);
      } else if (c === ')') {
        if (--depth === 0) return Uint8Array.from(out);
        out.push(41);
      } else out.push(c.charCodeAt(0));
    }
    throw new ContentSyntaxError('unterminated string');
  };

  const hex = (): Uint8Array => {
    const end = s.indexOf('>', i);
    if (end < 0) throw new ContentSyntaxError('unterminated hex string');
    let digits = s.slice(i + 1, end).replace(/[^0-9a-fA-F]/g, '');
    i = end + 1;
    if (digits.length % 2) digits += '0';
    return Uint8Array.from(Buffer.from(digits, 'hex'));
  };

  const regular = () => {
    const from = i;
    while (i < s.length && !WHITE.has(s.charCodeAt(i)) && !DELIM.has(s.charCodeAt(i))) i++;
    return s.slice(from, i);
  };

  const operand = (): Operand | null => {
    const c = s[i];
    if (c === '(') return { kind: 'string', bytes: literal() };
    if (c === '<' && s[i + 1] === '<') {
      const from = i;
      let depth = 0;
      while (i < s.length) {
        if (s.startsWith('<<', i)) {
          depth++;
          i += 2;
        } else if (s.startsWith('>>', i)) {
          depth--;
          i += 2;
          if (depth === 0) break;
        } else if (s[i] === '(') literal();
        else i++;
      }
      return { kind: 'raw', text: s.slice(from, i) };
    }
    if (c === '<') return { kind: 'string', bytes: hex() };
    if (c === '[') {
      i++;
      const items: Operand[] = [];
      for (;;) {
        skipWhite();
        if (i >= s.length) throw new ContentSyntaxError('unterminated array');
        if (s[i] === ']') {
          i++;
          return { kind: 'array', items };
        }
        const item = operand();
        if (!item) throw new ContentSyntaxError(`operator inside an array at ${i}`);
        items.push(item);
      }
    }
    if (c === '/') {
      i++;
      return { kind: 'name', value: regular() };
    }
    const from = i;
    const word = regular();
    if (!word) {
      i++;
      throw new ContentSyntaxError(`unexpected "${s[from]}" at ${from}`);
    }
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) return { kind: 'number', value: Number(word) };
    if (word === 'true' || word === 'false' || word === 'null') return { kind: 'raw', text: word };
    i = from;
    return null;
  };

  for (;;) {
    skipWhite();
    if (i >= s.length) break;
    if (stack.length === 0) start = i;
    const o = operand();
    if (o) {
      stack.push(o);
      continue;
    }
    const operator = regular();
    if (operator === 'BI') {
      // Inline image: its data runs from ID to an EI standing alone; kept whole as one operation.
      const id = s.indexOf('ID', i);
      let end = id < 0 ? -1 : s.indexOf('EI', id + 3);
      while (
        end >= 0 &&
        !(WHITE.has(s.charCodeAt(end - 1)) && (end + 2 >= s.length || WHITE.has(s.charCodeAt(end + 2))))
      )
        end = s.indexOf('EI', end + 2);
      if (end < 0) throw new ContentSyntaxError('unterminated inline image');
      i = end + 2;
      ops.push({ operator: 'BI', operands: [], source: s.slice(start, i) });
    } else {
      ops.push({ operator, operands: stack, source: s.slice(start, i) });
    }
    stack = [];
  }
  return ops;
}

const num = (n: number) => {
  const r = Math.round(n * 1000) / 1000;
  return Object.is(r, -0) ? '0' : String(r);
};

export function writeOperand(o: Operand): string {
  switch (o.kind) {
    case 'number':
      return num(o.value);
    case 'string':
      return `<${Buffer.from(o.bytes).toString('hex')}>`;
    case 'name':
      return `/${o.value}`;
    case 'array':
      return `[${o.items.map(writeOperand).join(' ')}]`;
    case 'raw':
      return o.text;
  }
}

export const writeOperation = (operator: string, operands: Operand[]) =>
  [...operands.map(writeOperand), operator].join(' ');

/** The stream back as bytes: unchanged operations as they were written, rewritten ones from their operands. */
export function serialize(parts: string[]): Uint8Array {
  return Uint8Array.from(Buffer.from(parts.join('\n'), 'latin1'));
}
