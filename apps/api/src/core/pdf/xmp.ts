import { PDFName, PDFRawStream, PDFRef, decodePDFRawStream, type PDFDocument } from 'pdf-lib';
import type { MetadataUpdate } from '../operations/pdf/interfaces';
import { XmlScanError, findElement, resolveName, scanXml, type XmlElement } from './xml-scan';

/**
 * XMP is the XML copy of the document information, and Acrobat and many document systems read it before the Info
 * dictionary. When a document has a packet, a metadata update rewrites the matching properties in it too, so that
 * both say the same; the rest of the packet (PDF/A identification, rights, custom schemas) is left byte for byte.
 */

const NS = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  dc: 'http://purl.org/dc/elements/1.1/',
  pdf: 'http://ns.adobe.com/pdf/1.3/',
  xmp: 'http://ns.adobe.com/xap/1.0/',
  xmpRights: 'http://ns.adobe.com/xap/1.0/rights/',
  pdfuaid: 'http://www.aiim.org/pdfua/ns/id/',
} as const;
type Schema = Exclude<keyof typeof NS, 'rdf'>;

/** Plain text, a language alternative (written as x-default), an ordered or an unordered list. */
type Shape = 'text' | 'alt' | 'seq' | 'bag';

export interface XmpProperty {
  schema: Schema;
  name: string;
  shape: Shape;
  /** null: the property is removed. */
  values: string[] | null;
}

type Field = keyof MetadataUpdate;

/** Where each Info entry lives in XMP, as Acrobat maps them (keywords go to both pdf:Keywords and dc:subject). */
const mapping: Record<Field, Array<Omit<XmpProperty, 'values'>>> = {
  title: [{ schema: 'dc', name: 'title', shape: 'alt' }],
  author: [{ schema: 'dc', name: 'creator', shape: 'seq' }],
  subject: [{ schema: 'dc', name: 'description', shape: 'alt' }],
  keywords: [
    { schema: 'pdf', name: 'Keywords', shape: 'text' },
    { schema: 'dc', name: 'subject', shape: 'bag' },
  ],
  creator: [{ schema: 'xmp', name: 'CreatorTool', shape: 'text' }],
  producer: [{ schema: 'pdf', name: 'Producer', shape: 'text' }],
  creationDate: [{ schema: 'xmp', name: 'CreateDate', shape: 'text' }],
  modificationDate: [{ schema: 'xmp', name: 'ModifyDate', shape: 'text' }],
  copyright: [{ schema: 'dc', name: 'rights', shape: 'alt' }],
  marked: [{ schema: 'xmpRights', name: 'Marked', shape: 'text' }],
  trapped: [{ schema: 'pdf', name: 'Trapped', shape: 'text' }],
};

/** Fields with no Info dictionary entry: a document without XMP gets a packet for them. */
const xmpOnly: Field[] = ['copyright', 'marked', 'trapped'];

const xmpDate = (d: Date) => (Number.isNaN(d.getTime()) ? null : d.toISOString().replace(/\.\d{3}Z$/, 'Z'));

function valuesOf(value: string | Date | boolean | null, shape: Shape): string[] | null {
  if (value === null) return null;
  if (typeof value === 'boolean') return [value ? 'True' : 'False'];
  if (value instanceof Date) {
    const iso = xmpDate(value);
    return iso === null ? null : [iso];
  }
  if (shape !== 'bag') return [value];
  const items = value
    .split(/[,;]/)
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length ? items : null;
}

/** The XMP properties for the Info fields given (set or cleared), and the metadata date. */
const metadataDate = (now: Date): XmpProperty => ({
  schema: 'xmp',
  name: 'MetadataDate',
  shape: 'text',
  values: [xmpDate(now)!],
});

function xmpProperties(fields: MetadataUpdate, now: Date): XmpProperty[] {
  const given = (Object.keys(mapping) as Field[]).filter((f) => fields[f] !== undefined);
  const props = given.flatMap((f) => mapping[f].map((m) => ({ ...m, values: valuesOf(fields[f]!, m.shape) })));
  return [...props, metadataDate(now)];
}

// ---------------------------------------------------------------- writing

/** XML 1.0 cannot carry most C0 controls at all, even escaped: one would make the whole packet unreadable. */
const notXmlChar = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export const escapeXml = (s: string) => s.replace(notXmlChar, '').replace(/[&<>"']/g, (c) => entities[c]!);

function renderProperty(p: XmpProperty & { values: string[] }): string {
  const li = (v: string, attrs = '') => `<rdf:li${attrs}>${escapeXml(v)}</rdf:li>`;
  const list = p.shape === 'seq' ? 'rdf:Seq' : 'rdf:Bag';
  const inner =
    p.shape === 'text'
      ? escapeXml(p.values[0]!)
      : p.shape === 'alt'
        ? `<rdf:Alt>${li(p.values[0]!, ' xml:lang="x-default"')}</rdf:Alt>`
        : `<${list}>${p.values.map((v) => li(v)).join('')}</${list}>`;
  return `<${p.schema}:${p.name}>${inner}</${p.schema}:${p.name}>`;
}

/**
 * One rdf:Description with the properties that have values. It declares every prefix it uses, so it reads the same
 * whatever the packet around it binds those prefixes to.
 */
function renderDescription(about: string, props: XmpProperty[], indent: string): string {
  const set = props.filter((p): p is XmpProperty & { values: string[] } => p.values !== null);
  const xmlns = (['rdf', ...new Set(set.map((p) => p.schema))] as const).map((s) => ` xmlns:${s}="${NS[s]}"`).join('');
  const body = set.map((p) => `${indent} ${renderProperty(p)}\n`).join('');
  return `${indent}<rdf:Description rdf:about="${escapeXml(about)}"${xmlns}>\n${body}${indent}</rdf:Description>\n`;
}

function freshPacket(props: XmpProperty[]): string {
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    ` <rdf:RDF xmlns:rdf="${NS.rdf}">`,
    `${renderDescription('', props, '  ')} </rdf:RDF>`,
    '</x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('\n');
}

// ---------------------------------------------------------------- editing in place

interface Edit {
  from: number;
  to: number;
  text: string;
}

function applyEdits(xml: string, edits: Edit[]): string {
  return [...edits].sort((a, b) => b.from - a.from).reduce((s, e) => s.slice(0, e.from) + e.text + s.slice(e.to), xml);
}

function indentStart(xml: string, at: number): number {
  let i = at;
  while (i > 0 && (xml[i - 1] === ' ' || xml[i - 1] === '\t')) i--;
  return i;
}

/** Where a removal starts: at the line break before the element, so that it leaves no blank line. */
function lineStart(xml: string, at: number): number {
  let i = indentStart(xml, at);
  if (xml[i - 1] === '\n') i--;
  if (xml[i - 1] === '\r') i--;
  return i;
}

/** The indentation of the line `at` starts, or undefined when something else comes before it on that line. */
function ownLineIndent(xml: string, at: number): string | undefined {
  const i = indentStart(xml, at);
  return i === 0 || xml[i - 1] === '\n' ? xml.slice(i, at) : undefined;
}

/** Insert lines before the end tag at `at`, indented like `sibling` when it has a line of its own. */
function insertLinesBefore(
  xml: string,
  at: number,
  sibling: XmlElement | undefined,
  render: (indent: string) => string,
): Edit {
  const own = ownLineIndent(xml, at);
  const indent = (sibling && ownLineIndent(xml, sibling.start)) ?? `${own ?? ''} `;
  return own !== undefined
    ? { from: at - own.length, to: at - own.length, text: render(indent) }
    : { from: at, to: at, text: `\n${render(indent)}` };
}

export const isRdf = (el: XmlElement, local: string) => {
  const n = resolveName(el, el.name);
  return n.uri === NS.rdf && n.local === local;
};

function aboutOf(description: XmlElement | undefined): string {
  const about = description?.attrs.find((a) => {
    const n = resolveName(description, a.name, true);
    return n.uri === NS.rdf && n.local === 'about';
  });
  return about?.value ?? '';
}

/**
 * Remove every occurrence of the properties (as elements or as attributes of any rdf:Description), then add one
 * rdf:Description with their new values at the end of rdf:RDF. Throws XmlScanError when the packet is not one it
 * can edit safely.
 */
function editPacket(xml: string, props: XmpProperty[]): string {
  const rdf = findElement(scanXml(xml), (el) => isRdf(el, 'RDF'));
  if (!rdf || rdf.closeStart === undefined) throw new XmlScanError('no rdf:RDF element');
  const targets = new Set(props.map((p) => `${NS[p.schema]} ${p.name}`));
  const isTarget = (el: XmlElement, name: string, isAttribute = false) => {
    const n = resolveName(el, name, isAttribute);
    return targets.has(`${n.uri} ${n.local}`);
  };
  const descriptions = rdf.children.filter((el) => isRdf(el, 'Description'));
  const removals = descriptions.flatMap((d) => [
    ...d.attrs.filter((a) => isTarget(d, a.name, true)).map((a) => ({ from: a.start, to: a.end, text: '' })),
    ...d.children
      .filter((c) => isTarget(c, c.name))
      .map((c) => ({ from: lineStart(xml, c.start), to: c.end, text: '' })),
  ]);
  const insertion = insertLinesBefore(xml, rdf.closeStart, descriptions.at(-1), (indent) =>
    renderDescription(aboutOf(descriptions[0]), props, indent),
  );
  return applyEdits(xml, [...removals, insertion]);
}

// ---------------------------------------------------------------- the PDF side

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The packet as text, or null when it cannot be read (unknown filter, not UTF-8). */
function readPacket(stream: PDFRawStream): string | null {
  try {
    return utf8.decode(decodePDFRawStream(stream).decode());
  } catch {
    return null;
  }
}

/** The Info dictionary as it now stands: a fresh packet carries all of it, not only the fields just changed. */
function currentInfo(doc: PDFDocument): MetadataUpdate {
  return {
    title: doc.getTitle() ?? null,
    author: doc.getAuthor() ?? null,
    subject: doc.getSubject() ?? null,
    keywords: doc.getKeywords() ?? null,
    creator: doc.getCreator() ?? null,
    producer: doc.getProducer() ?? null,
    creationDate: doc.getCreationDate() ?? null,
    modificationDate: doc.getModificationDate() ?? null,
  };
}

/** The document's packet as text: null when it has none, or one that cannot be read. */
export function documentPacket(doc: PDFDocument): string | null {
  const stream = doc.catalog.lookup(PDFName.of('Metadata'));
  return stream instanceof PDFRawStream ? readPacket(stream) : null;
}

/**
 * `props` set in the document's packet (edited in place), or in a fresh one carrying the Info dictionary as it now
 * stands when there is none or it cannot be edited.
 */
export function setXmpProperties(doc: PDFDocument, props: XmpProperty[], now = new Date()): void {
  const packet = documentPacket(doc);
  const stamped = [...props, metadataDate(now)];
  if (packet !== null) {
    try {
      writePacket(doc, editPacket(packet, stamped));
      return;
    } catch (err) {
      if (!(err instanceof XmlScanError)) throw err;
    }
  }
  const info = xmpProperties(currentInfo(doc), now).filter((p) => !stamped.some((q) => q.name === p.name));
  writePacket(doc, freshPacket([...info, ...stamped]));
}

/**
 * After the Info dictionary of `doc` was updated with `fields`: bring its XMP packet (catalog /Metadata) in step.
 * A document without one is left without, adding XMP being a change nobody asked for, unless a field lives only in
 * XMP (copyright, marked, trapped).
 */
export function syncXmp(doc: PDFDocument, fields: MetadataUpdate, now = new Date()): void {
  const hasPacket = doc.catalog.lookup(PDFName.of('Metadata')) instanceof PDFRawStream;
  if (!hasPacket && !xmpOnly.some((f) => fields[f] !== undefined && fields[f] !== null)) return;
  setXmpProperties(
    doc,
    xmpProperties(fields, now).filter((p) => p.name !== 'MetadataDate'),
    now,
  );
}

/** Replace the document's packet with `xml`. */
export function writePacket(doc: PDFDocument, xml: string): void {
  const key = PDFName.of('Metadata');
  // Unfiltered, as PDF/A requires, and so that tools that scan files for packets find it.
  const updated = doc.context.stream(new TextEncoder().encode(xml), { Type: 'Metadata', Subtype: 'XML' });
  const ref = doc.catalog.get(key);
  // In place: the old packet leaves no unreferenced object behind.
  if (ref instanceof PDFRef) doc.context.assign(ref, updated);
  else doc.catalog.set(key, doc.context.register(updated));
}
