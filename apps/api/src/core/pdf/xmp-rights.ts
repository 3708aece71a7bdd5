import { findElement, resolveName, scanXml, XmlScanError, type XmlElement } from './xml-scan';

/**
 * The XMP-only properties a metadata update writes (dc:rights, xmpRights:Marked, pdf:Trapped), read back from a
 * packet as ExifTool reports them: the x-default rights text, Marked as a boolean, Trapped as its word.
 */

export interface XmpRights {
  copyright?: string;
  marked?: boolean;
  trapped?: string;
}

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const wanted = {
  copyright: { uri: 'http://purl.org/dc/elements/1.1/', local: 'rights' },
  marked: { uri: 'http://ns.adobe.com/xap/1.0/rights/', local: 'Marked' },
  trapped: { uri: 'http://ns.adobe.com/pdf/1.3/', local: 'Trapped' },
} as const;

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string) =>
  s.replace(/&(?:(amp|lt|gt|quot|apos)|#(\d+)|#x([\da-fA-F]+));/g, (_, n?: string, d?: string, h?: string) =>
    n ? entities[n]! : String.fromCodePoint(d ? Number(d) : parseInt(h!, 16)),
  );

/** The text inside a leaf element (its start tag ends at the first '>' after its last attribute). */
function textOf(xml: string, el: XmlElement): string {
  if (el.closeStart === undefined) return '';
  const from = xml.indexOf('>', el.attrs.at(-1)?.end ?? el.start) + 1;
  const raw = xml.slice(from, el.closeStart);
  const cdata = /^\s*<!\[CDATA\[([\s\S]*)\]\]>\s*$/.exec(raw);
  return (cdata ? cdata[1]! : decode(raw)).trim();
}

const is = (el: XmlElement, name: string, uri: string, local: string, attribute = false) => {
  const n = resolveName(el, name, attribute);
  return n.uri === uri && n.local === local;
};

/** A property's value: plain text, or the x-default (else first) item of an rdf:Alt, Seq or Bag. */
function valueOf(xml: string, prop: XmlElement): string {
  const list = prop.children.find((c) => ['Alt', 'Seq', 'Bag'].some((k) => is(c, c.name, RDF, k)));
  if (!list) return textOf(xml, prop);
  const items = list.children.filter((c) => is(c, c.name, RDF, 'li'));
  const lang = (li: XmlElement) => li.attrs.find((a) => a.name === 'xml:lang')?.value;
  const chosen = items.find((li) => lang(li) === 'x-default') ?? items[0];
  return chosen ? textOf(xml, chosen) : '';
}

/** The last value of each property in the packet (a later rdf:Description overrides), as element or attribute. */
export function readXmpRights(packet: string): XmpRights {
  let rdf: XmlElement | undefined;
  try {
    rdf = findElement(scanXml(packet), (el) => is(el, el.name, RDF, 'RDF'));
  } catch (err) {
    if (err instanceof XmlScanError) return {};
    throw err;
  }
  const found: Partial<Record<keyof typeof wanted, string>> = {};
  for (const d of rdf?.children.filter((el) => is(el, el.name, RDF, 'Description')) ?? []) {
    for (const [key, { uri, local }] of Object.entries(wanted) as Array<
      [keyof typeof wanted, { uri: string; local: string }]
    >) {
      const attr = d.attrs.find((a) => is(d, a.name, uri, local, true));
      if (attr) found[key] = attr.value.trim();
      const el = d.children.find((c) => is(c, c.name, uri, local));
      if (el) found[key] = valueOf(packet, el);
    }
  }
  const rights: XmpRights = {};
  if (found.copyright) rights.copyright = found.copyright;
  if (found.marked && /^(true|false)$/i.test(found.marked)) rights.marked = found.marked.toLowerCase() === 'true';
  if (found.trapped) rights.trapped = found.trapped;
  return rights;
}
