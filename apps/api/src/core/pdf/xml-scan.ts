/**
 * A strict little XML reader for XMP packets: elements and attributes with their source offsets and namespaces, so
 * that a packet can be edited in place, leaving every byte it does not touch as it was. It refuses what an XMP packet
 * has no need for and a careless reader could be hurt by (DTDs, entity declarations, unknown entities), and anything
 * malformed: the caller then writes a fresh packet rather than guess.
 */

export interface XmlAttr {
  name: string;
  /** The value with its entities decoded. */
  value: string;
  /** From the whitespace before the name to after the closing quote: removing it leaves a valid tag. */
  start: number;
  end: number;
}

export interface XmlElement {
  name: string;
  attrs: XmlAttr[];
  children: XmlElement[];
  /** In-scope namespace bindings ('' is the default namespace). */
  ns: Map<string, string>;
  /** Offset of '<' of the start tag, and just after the end tag (or of the '/>'). */
  start: number;
  end: number;
  /** Offset of '</' of the end tag; undefined for an empty-element tag. */
  closeStart?: number;
}

export class XmlScanError extends Error {}

const NAME = String.raw`[\p{L}_][\p{L}\p{N}_.\-]*(?::[\p{L}_][\p{L}\p{N}_.\-]*)?`;
const startTagName = new RegExp(`<(${NAME})`, 'uy');
const attribute = new RegExp(String.raw`\s+(${NAME})\s*=\s*(?:"([^"<]*)"|'([^'<]*)')`, 'uy');
const startTagEnd = /\s*(\/?)>/y;
const endTag = new RegExp(String.raw`</(${NAME})\s*>`, 'uy');
const entity = /&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#x([\da-fA-F]{1,6}));/g;
const predefined: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decode the five predefined entities and character references; any other '&' is refused. */
function decodeText(raw: string): string {
  if (/&(?!(?:amp|lt|gt|quot|apos|#\d{1,7}|#x[\da-fA-F]{1,6});)/.test(raw)) throw new XmlScanError('unknown entity');
  return raw.replace(entity, (_, name?: string, dec?: string, hex?: string) => {
    if (name) return predefined[name]!;
    const cp = dec ? Number(dec) : parseInt(hex!, 16);
    if (cp > 0x10ffff) throw new XmlScanError('bad character reference');
    return String.fromCodePoint(cp);
  });
}

function sticky(re: RegExp, xml: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(xml);
}

function skipPast(xml: string, from: number, marker: string): number {
  const at = xml.indexOf(marker, from);
  if (at < 0) throw new XmlScanError(`unterminated, expected ${marker}`);
  return at + marker.length;
}

function bindNamespaces(el: XmlElement): void {
  for (const a of el.attrs) {
    if (a.name === 'xmlns') el.ns.set('', a.value);
    else if (a.name.startsWith('xmlns:')) el.ns.set(a.name.slice(6), a.value);
  }
}

/** Read a start tag at `at`; returns the element and the offset after its '>'. */
function readStartTag(
  xml: string,
  at: number,
  parent: XmlElement | undefined,
): { el: XmlElement; next: number; empty: boolean } {
  const open = sticky(startTagName, xml, at);
  if (!open) throw new XmlScanError(`bad tag at ${at}`);
  const el: XmlElement = { name: open[1]!, attrs: [], children: [], ns: new Map(parent?.ns), start: at, end: -1 };
  let pos = at + open[0].length;
  for (let m = sticky(attribute, xml, pos); m; m = sticky(attribute, xml, pos)) {
    el.attrs.push({ name: m[1]!, value: decodeText(m[2] ?? m[3] ?? ''), start: pos, end: pos + m[0].length });
    pos += m[0].length;
  }
  const close = sticky(startTagEnd, xml, pos);
  if (!close) throw new XmlScanError(`bad tag at ${at}`);
  bindNamespaces(el);
  return { el, next: pos + close[0].length, empty: close[1] === '/' };
}

/** Parse a whole document; returns its root element. Throws XmlScanError on anything it does not accept. */
export function scanXml(xml: string): XmlElement {
  const roots: XmlElement[] = [];
  const stack: XmlElement[] = [];
  let i = 0;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt < 0 ? xml.length : lt);
    if (stack.length === 0 && text.trim()) throw new XmlScanError('text outside the root element');
    decodeText(text);
    if (lt < 0) break;
    const top = stack[stack.length - 1];
    if (xml.startsWith('<?', lt)) i = skipPast(xml, lt, '?>');
    else if (xml.startsWith('<!--', lt)) i = skipPast(xml, lt, '-->');
    else if (xml.startsWith('<![CDATA[', lt) && top) i = skipPast(xml, lt, ']]>');
    else if (xml.startsWith('<!', lt)) throw new XmlScanError('declarations are not accepted');
    else if (xml.startsWith('</', lt)) {
      const m = sticky(endTag, xml, lt);
      if (!m || !top || m[1] !== top.name) throw new XmlScanError(`mismatched end tag at ${lt}`);
      top.closeStart = lt;
      top.end = lt + m[0].length;
      stack.pop();
      i = top.end;
    } else {
      const { el, next, empty } = readStartTag(xml, lt, top);
      (top ? top.children : roots).push(el);
      if (empty) el.end = next;
      else stack.push(el);
      i = next;
    }
  }
  if (stack.length || roots.length !== 1) throw new XmlScanError('not one complete root element');
  return roots[0]!;
}

/** The namespace URI and local name of an element or attribute name (unprefixed attributes have no namespace). */
export function resolveName(
  el: XmlElement,
  qname: string,
  isAttribute = false,
): { uri: string | undefined; local: string } {
  const colon = qname.indexOf(':');
  if (colon < 0) return { uri: isAttribute ? undefined : el.ns.get(''), local: qname };
  return { uri: el.ns.get(qname.slice(0, colon)), local: qname.slice(colon + 1) };
}

/** Depth-first search. */
export function findElement(root: XmlElement, match: (el: XmlElement) => boolean): XmlElement | undefined {
  if (match(root)) return root;
  for (const c of root.children) {
    const found = findElement(c, match);
    if (found) return found;
  }
  return undefined;
}
