import { createHash } from 'node:crypto';
import {
  EncryptedPDFError,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRef,
  PDFString,
  type PDFContext,
  type PDFObject,
} from 'pdf-lib';
import { EngineError } from '../errors';

/** Where a visible signature is drawn, in the page's default user space (pt, from the bottom-left corner). */
export interface SignatureAppearance {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  lines: string[];
  /** Drawn at the left of the text (a hand-written signature, a seal), its proportions kept. */
  image?: { bytes: Buffer; kind: 'png' | 'jpg' };
}

export interface SignatureFieldOptions {
  subFilter: 'ETSI.CAdES.detached' | 'ETSI.RFC3161';
  /** Bytes reserved for the CMS (the hex string holds twice as many characters). */
  reserve: number;
  date: Date;
  name?: string;
  reason?: string;
  location?: string;
  contact?: string;
  appearance?: SignatureAppearance;
}

/** A PDF with an empty signature appended, and where its /Contents hole and /ByteRange are. */
export interface PlaceholderPdf {
  bytes: Buffer;
  contents: { start: number; end: number };
  byteRange: { start: number; end: number };
}

const bytesOf = (o: PDFObject): Buffer => {
  const b = new Uint8Array(o.sizeInBytes());
  o.copyBytesInto(b, 0);
  return Buffer.from(b);
};

/** The start of the last cross-reference section: the update's /Prev. */
function lastStartXref(pdf: Buffer): number {
  const at = pdf.lastIndexOf('startxref');
  const m = at < 0 ? null : /^startxref\s+(\d+)/.exec(pdf.subarray(at, at + 40).toString('latin1'));
  if (!m) throw new EngineError('INVALID_PDF', 'file: the PDF has no cross-reference table to update', {});
  return Number(m[1]);
}

async function load(pdf: Buffer): Promise<PDFDocument> {
  try {
    return await PDFDocument.load(pdf, { updateMetadata: false });
  } catch (err) {
    if (err instanceof EncryptedPDFError) {
      throw new EngineError(
        'INVALID_PDF',
        'file: this PDF is encrypted; remove its password (/pdf/unlock) before signing',
        {
          details: { field: 'file' },
          cause: err,
        },
      );
    }
    throw new EngineError('INVALID_PDF', 'file: the PDF could not be read', { details: { field: 'file' }, cause: err });
  }
}

/**
 * The highest object number the file uses. pdf-lib drops object streams and cross-reference streams once read, so
 * its own count can be below theirs: a new object numbered like one of them would shadow it. Every revision's
 * trailer (or cross-reference stream) says its /Size.
 */
function highestObjectNumber(pdf: Buffer, ctx: PDFContext): number {
  let n = ctx.largestObjectNumber;
  for (const m of pdf.toString('latin1').matchAll(/\/Size\s+(\d{1,8})\b/g)) n = Math.max(n, Number(m[1]) - 1);
  return n;
}

/** PDF text: ASCII as is, anything else as UTF-16 (what every reader shows). */
const text = (s: string) =>
  /^[\x20-\x7e]*$/.test(s) ? PDFString.of(s.replace(/[\\()]/g, '\\$&')) : PDFHexString.fromText(s);

/** Helvetica with WinAnsi takes Latin-1; what it cannot draw is shown as "?". */
const latin1Literal = (s: string) => `(${s.replace(/[^\x20-\xff]/g, '?').replace(/[\\()]/g, '\\$&')})`;

async function appearanceStream(doc: PDFDocument, a: SignatureAppearance | undefined): Promise<PDFRef> {
  const ctx = doc.context;
  if (!a) return ctx.register(ctx.stream('', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 0, 0] }));
  const pad = 4;
  const inner = a.height - 2 * pad;
  const xobjects: Record<string, PDFRef> = {};
  const ops = [
    'q 0.15 0.25 0.55 RG 0.8 w',
    `0.4 0.4 ${(a.width - 0.8).toFixed(2)} ${(a.height - 0.8).toFixed(2)} re S`,
    `${pad} ${pad} ${(a.width - 2 * pad).toFixed(2)} ${inner.toFixed(2)} re W n`,
  ];
  let textX = pad;
  if (a.image) {
    const img = a.image.kind === 'png' ? await doc.embedPng(a.image.bytes) : await doc.embedJpg(a.image.bytes);
    await img.embed();
    const scale = Math.min(inner / img.height, (a.width * 0.4) / img.width);
    const [w, h] = [img.width * scale, img.height * scale];
    ops.push(`q ${w.toFixed(2)} 0 0 ${h.toFixed(2)} ${pad} ${(pad + (inner - h) / 2).toFixed(2)} cm /Img Do Q`);
    xobjects.Img = img.ref;
    textX = pad + w + pad;
  }
  const size = Math.max(4, Math.min(10, inner / (a.lines.length * 1.2)));
  ops.push(
    `BT 0.1 0.1 0.3 rg /Helv ${size.toFixed(2)} Tf ${(size * 1.2).toFixed(2)} TL`,
    `${textX.toFixed(2)} ${(a.height - pad - size).toFixed(2)} Td`,
    ...a.lines.map((l, i) => `${i ? 'T* ' : ''}${latin1Literal(l)} Tj`),
    'ET Q',
  );
  const font = ctx.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' });
  return ctx.register(
    ctx.stream(ops.join('\n'), {
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [0, 0, a.width, a.height],
      Resources: { Font: { Helv: font }, ...(a.image ? { XObject: xobjects } : {}) },
    }),
  );
}

/** Names of the form's fields, to give the new one a name of its own. */
function fieldNames(ctx: PDFContext, fields: PDFArray | undefined): Set<string> {
  const names = new Set<string>();
  for (const f of fields?.asArray() ?? []) {
    const d = ctx.lookup(f);
    const t = d instanceof PDFDict ? d.get(PDFName.of('T')) : undefined;
    if (t instanceof PDFString || t instanceof PDFHexString) names.add(t.decodeText());
  }
  return names;
}

/**
 * Append to `pdf` an incremental update (ISO 32000-1 7.5.6) holding a signature field with an empty signature of
 * `reserve` bytes: the original bytes stay exactly as they were, so the signatures they hold stay valid. The update
 * rewrites only what it must: the page (or its /Annots array), the catalog or the /AcroForm, and adds the signature
 * dictionary, its widget and appearance.
 */
export async function appendSignaturePlaceholder(pdf: Buffer, o: SignatureFieldOptions): Promise<PlaceholderPdf> {
  const prev = lastStartXref(pdf);
  const doc = await load(pdf);
  const ctx = doc.context;
  const pages = doc.getPages();
  const pageNo = o.appearance?.page ?? 1;
  const page = pages[pageNo - 1];
  if (!page) {
    throw new EngineError('INVALID_INPUT', `page: the PDF has ${pages.length} page(s); page ${pageNo} does not exist`, {
      details: { field: 'page', pages: pages.length },
    });
  }
  const rootRef = ctx.trailerInfo.Root;
  if (!(rootRef instanceof PDFRef)) throw new EngineError('INVALID_PDF', 'file: the PDF has no document catalog', {});
  ctx.largestObjectNumber = highestObjectNumber(pdf, ctx);
  // Every object numbered past this one is new (the image embedder registers its own, a PNG's soft mask too).
  const firstNew = ctx.largestObjectNumber + 1;
  const changed = new Map<PDFRef, PDFObject>();

  // ByteRange: wide numbers now, the real ones written over them once the file's length is known.
  const wide = PDFNumber.of(9_999_999_999);
  const sig: Record<string, unknown> = {
    Type: o.subFilter === 'ETSI.RFC3161' ? 'DocTimeStamp' : 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: o.subFilter,
    ByteRange: [0, wide, wide, wide],
    Contents: PDFHexString.of('0'.repeat(o.reserve * 2)),
  };
  if (o.subFilter !== 'ETSI.RFC3161') sig.M = PDFString.fromDate(o.date);
  const sigDict = ctx.obj(sig as never) as unknown as PDFDict;
  for (const [k, v] of [
    ['Name', o.name],
    ['Reason', o.reason],
    ['Location', o.location],
    ['ContactInfo', o.contact],
  ] as const) {
    if (v) sigDict.set(PDFName.of(k), text(v));
  }
  const sigRef = ctx.register(sigDict);
  const apRef = await appearanceStream(doc, o.appearance);

  let acroForm = doc.catalog.get(PDFName.of('AcroForm'));
  let acroRef: PDFRef = rootRef;
  if (acroForm instanceof PDFRef) {
    acroRef = acroForm;
    acroForm = ctx.lookup(acroForm);
  }
  if (!(acroForm instanceof PDFDict)) {
    acroForm = ctx.obj({});
    acroRef = ctx.register(acroForm);
    doc.catalog.set(PDFName.of('AcroForm'), acroRef);
    changed.set(rootRef, doc.catalog);
  }
  const form = acroForm as PDFDict;
  const fields = form.get(PDFName.of('Fields'));
  let fieldsArray: PDFArray;
  if (fields instanceof PDFRef) {
    fieldsArray = ctx.lookup(fields, PDFArray);
    changed.set(fields, fieldsArray);
  } else {
    fieldsArray = fields instanceof PDFArray ? fields : ctx.obj([]);
    form.set(PDFName.of('Fields'), fieldsArray);
  }
  const taken = fieldNames(ctx, fieldsArray);
  let n = 1;
  while (taken.has(`Signature${n}`)) n++;

  const a = o.appearance;
  const widget = ctx.obj({
    Type: 'Annot',
    Subtype: 'Widget',
    FT: 'Sig',
    T: PDFString.of(`Signature${n}`),
    V: sigRef,
    // Print + Locked: shown on paper too, and not to be moved.
    F: 132,
    P: page.ref,
    Rect: a ? [a.x, a.y, a.x + a.width, a.y + a.height] : [0, 0, 0, 0],
    AP: { N: apRef },
  });
  const widgetRef = ctx.register(widget);
  fieldsArray.push(widgetRef);
  form.set(PDFName.of('SigFlags'), PDFNumber.of(3));
  if (acroRef.objectNumber < firstNew) changed.set(acroRef, acroRef === rootRef ? doc.catalog : form);

  const annots = page.node.get(PDFName.of('Annots'));
  if (annots instanceof PDFRef) {
    const arr = ctx.lookup(annots, PDFArray);
    arr.push(widgetRef);
    changed.set(annots, arr);
  } else {
    const arr = annots instanceof PDFArray ? annots : ctx.obj([]);
    arr.push(widgetRef);
    page.node.set(PDFName.of('Annots'), arr);
    changed.set(page.ref, page.node);
  }

  const head = pdf[pdf.length - 1] === 0x0a ? pdf : Buffer.concat([pdf, Buffer.from('\n')]);
  const parts: Buffer[] = [head];
  let at = head.length;
  const offsets = new Map<number, { offset: number; gen: number }>();
  let sigAt = -1;
  let sigBody: Buffer = Buffer.alloc(0);
  const added = ctx.enumerateIndirectObjects().filter(([ref]) => ref.objectNumber >= firstNew);
  const objects: Array<[PDFRef, PDFObject]> = [...changed, ...added];
  for (const [ref, obj] of objects) {
    const open = Buffer.from(`${ref.objectNumber} ${ref.generationNumber} obj\n`, 'latin1');
    const body = bytesOf(obj);
    if (ref === sigRef) {
      sigAt = at + open.length;
      sigBody = body;
    }
    offsets.set(ref.objectNumber, { offset: at, gen: ref.generationNumber });
    const chunk = Buffer.concat([open, body, Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(chunk);
    at += chunk.length;
  }
  const xrefAt = at;
  const numbers = [...offsets.keys()].sort((x, y) => x - y);
  const lines: string[] = ['xref'];
  for (let i = 0; i < numbers.length;) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++;
    lines.push(`${numbers[i]} ${j - i + 1}`);
    for (let k = i; k <= j; k++) {
      const e = offsets.get(numbers[k]!)!;
      lines.push(`${String(e.offset).padStart(10, '0')} ${String(e.gen).padStart(5, '0')} n\r`);
    }
    i = j + 1;
  }
  const trailer = ctx.obj({}) as PDFDict;
  trailer.set(PDFName.of('Size'), PDFNumber.of(ctx.largestObjectNumber + 1));
  trailer.set(PDFName.of('Root'), rootRef);
  if (ctx.trailerInfo.Info instanceof PDFRef) trailer.set(PDFName.of('Info'), ctx.trailerInfo.Info);
  if (ctx.trailerInfo.ID instanceof PDFArray) trailer.set(PDFName.of('ID'), ctx.trailerInfo.ID);
  trailer.set(PDFName.of('Prev'), PDFNumber.of(prev));
  parts.push(
    Buffer.from(`${lines.join('\n')}\ntrailer\n${trailer.toString()}\nstartxref\n${xrefAt}\n%%EOF\n`, 'latin1'),
  );
  const bytes = Buffer.concat(parts);

  const sigText = sigBody.toString('latin1');
  const c = sigText.indexOf('/Contents <');
  const br = sigText.indexOf('/ByteRange [');
  const contentsStart = sigAt + c + '/Contents '.length;
  const byteRangeStart = sigAt + br + '/ByteRange '.length;
  return {
    bytes,
    contents: { start: contentsStart, end: contentsStart + o.reserve * 2 + 2 },
    byteRange: { start: byteRangeStart, end: bytes.indexOf(']', byteRangeStart) + 1 },
  };
}

/**
 * Write the real /ByteRange (everything but the /Contents hole), hash those bytes, and put the signature made over
 * the digest in the hole.
 */
export async function fillSignature(p: PlaceholderPdf, sign: (sha256: Buffer) => Promise<Buffer>): Promise<Buffer> {
  const { bytes, contents, byteRange } = p;
  const range = `[0 ${contents.start} ${contents.end} ${bytes.length - contents.end}]`;
  const width = byteRange.end - byteRange.start;
  bytes.write(range.padEnd(width, ' '), byteRange.start, 'latin1');
  const digest = createHash('sha256')
    .update(bytes.subarray(0, contents.start))
    .update(bytes.subarray(contents.end))
    .digest();
  const der = await sign(digest);
  const hex = der.toString('hex');
  if (hex.length > contents.end - contents.start - 2) {
    throw new EngineError('ENGINE_FAILED', 'The signature is larger than the room reserved for it', {});
  }
  bytes.write(hex, contents.start + 1, 'latin1');
  return bytes;
}
