import type { TEndpointGroup } from '@docflow/contracts';
import type { Attachment, MetadataUpdate, PdfMetadata, PdfPermissions, PdfaPart } from '../../core/interfaces';
import * as ops from '../../core/pdf/operations';
import type { UploadedFile } from '../../lib/uploads';
import type { GotenbergForm } from './form';
import { invalidForm, isTrue } from './form';
import { applyMark, readMark, type GotenbergMark } from './marks';
import type { NamedFile } from './output';
import { selectPages } from './page-selection';

/**
 * The PDF steps Gotenberg's routes share after their own work (pdfengines, LibreOffice and Chromium alike): split,
 * watermark, stamp, rotate, flatten, PDF/A, metadata, encryption, in Gotenberg's order (marks on each split part;
 * metadata after PDF/A, which would strip it; encryption last). Each reads its Gotenberg fields and runs on DocFlow's PDF operations.
 */

export interface SplitSpec {
  mode: 'intervals' | 'pages';
  span: string;
  unify: boolean;
}

export interface EncryptSpec {
  userPassword: string;
  ownerPassword: string;
  permissions: PdfPermissions;
}

export interface RotateSpec {
  angle: 90 | 180 | 270;
  /** The raw page selection (empty: every page). */
  pages: string;
}

export interface Finishing {
  split?: SplitSpec;
  watermark?: GotenbergMark;
  stamp?: GotenbergMark;
  rotate?: RotateSpec;
  flatten?: boolean;
  /** The PDF/A part asked (PDF/A-1b, 2b or 3b). */
  pdfa?: PdfaPart;
  metadata?: MetadataUpdate;
  /** Files attached to each output (Gotenberg's `embeds`), after PDF/A and metadata, before encryption. */
  embeds?: Attachment[];
  encrypt?: EncryptSpec;
}

/**
 * The endpoint groups a form's finishing draws on beyond the route's own: each step is a DocFlow PDF operation (merge,
 * split, watermark, rotate, flatten, metadata, protect), so a key whose plan lacks `pdf` gets none of them through a conversion either.
 * Read from the raw fields, before the form is checked, so that a job is refused at its admission.
 */
export function finishingGroups(fields: Record<string, string>, files: number): TEndpointGroup[] {
  const set = (k: string) => (fields[k] ?? '') !== '';
  const on = (k: string) => isTrue(fields[k] ?? '');
  const pdfWork =
    (on('merge') && files > 1) ||
    set('splitMode') ||
    set('watermarkSource') ||
    set('stampSource') ||
    set('rotateAngle') ||
    on('flatten') ||
    set('metadata') ||
    set('userPassword') ||
    set('ownerPassword');
  return pdfWork ? ['pdf'] : [];
}

/** splitMode, splitSpan, splitUnify. */
export function readSplit(form: GotenbergForm, mandatory: boolean): SplitSpec | undefined {
  const mode = mandatory ? form.mandatoryString('splitMode') : form.string('splitMode');
  const span = (mandatory ? form.mandatoryString('splitSpan') : form.string('splitSpan')).replace(/\s+/g, '');
  const unify = form.bool('splitUnify', false);
  if (!mode && !span) {
    if (unify) form.fail('splitUnify', "needs splitMode 'pages'");
    return undefined;
  }
  if (mode !== 'intervals' && mode !== 'pages') {
    form.fail('splitMode', `is invalid (got '${mode}'): expected either 'intervals' or 'pages'`);
    return undefined;
  }
  if (!span) form.fail('splitSpan', 'is required with splitMode');
  if (mode === 'intervals' && span && !(/^\d+$/.test(span) && Number(span) >= 1))
    form.fail('splitSpan', `is invalid (got '${span}'): expected a whole number of pages, 1 or more`);
  if (unify && mode !== 'pages') form.fail('splitUnify', `is not available for split mode '${mode}'`);
  return { mode, span, unify };
}

const rotateAngles = new Set([90, 180, 270]);

/** rotateAngle (90, 180 or 270, clockwise) and rotatePages, as Gotenberg reads them; optional beside a conversion. */
export function readRotate(form: GotenbergForm, mandatory: boolean): RotateSpec | undefined {
  const raw = mandatory ? form.mandatoryString('rotateAngle') : form.string('rotateAngle');
  const pages = form.string('rotatePages');
  const angle = Number(raw);
  if (raw && !(/^\d+$/.test(raw) && rotateAngles.has(angle)))
    form.fail('rotateAngle', `is invalid (got '${raw}', resulting to wrong value, expected 90, 180, or 270)`);
  if (!rotateAngles.has(angle)) return undefined;
  return { angle: angle as RotateSpec['angle'], pages };
}

const pdfaParts: Record<string, PdfaPart> = { 'PDF/A-1B': 1, 'PDF/A-2B': 2, 'PDF/A-3B': 3 };

/** pdfa as Gotenberg takes it (PDF/A-1b, PDF/A-2b, PDF/A-3b); PDF/UA is refused by name. */
export function readPdfFormats(form: GotenbergForm): PdfaPart | undefined {
  const pdfa = form.string('pdfa');
  const pdfua = form.bool('pdfua', false);
  if (pdfua) form.fail('pdfua', 'is not supported by DocFlow (PDF/UA is not produced); leave it out or send false');
  const part = pdfaParts[pdfa.trim().toUpperCase()];
  if (pdfa && !part)
    form.fail('pdfa', `is invalid (got '${pdfa}'): expected either 'PDF/A-1b', 'PDF/A-2b' or 'PDF/A-3b'`);
  return part;
}

/** Gotenberg's (ExifTool's) metadata keys DocFlow writes, and the field of each. */
const metadataKeys: Record<string, keyof MetadataUpdate> = {
  title: 'title',
  author: 'author',
  subject: 'subject',
  keywords: 'keywords',
  creator: 'creator',
  producer: 'producer',
  creationdate: 'creationDate',
  createdate: 'creationDate',
  moddate: 'modificationDate',
  modifydate: 'modificationDate',
};
const metadataNames = 'Author, Title, Subject, Keywords, Creator, Producer, CreationDate (CreateDate), ModDate';

/** ISO 8601, or ExifTool's "2006:09:18 16:27:50-04:00". */
function parseDate(v: string): Date | null {
  const exif = /^(\d{4}):(\d{2}):(\d{2}) (\d{2}:\d{2}:\d{2})(.*)$/.exec(v.trim());
  const d = new Date(exif ? `${exif[1]}-${exif[2]}-${exif[3]}T${exif[4]}${exif[5] || 'Z'}` : v);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** metadata: a JSON object of ExifTool tag names; keys DocFlow cannot write are refused by name. */
export function readMetadata(form: GotenbergForm, mandatory: boolean): MetadataUpdate | undefined {
  if (mandatory && form.raw('metadata') === undefined) {
    form.fail('metadata', 'is required');
    return undefined;
  }
  const json = form.json('metadata');
  if (json === undefined) return undefined;
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    form.fail('metadata', 'is invalid: expected a JSON object such as {"Author":"…","Title":"…"}');
    return undefined;
  }
  const update: MetadataUpdate = {};
  for (const [key, value] of Object.entries(json)) {
    const field = metadataKeys[key.toLowerCase()];
    if (!field) {
      form.fail('metadata', `has the key '${key}', which DocFlow cannot write (valid: ${metadataNames})`);
      continue;
    }
    if (value === null) {
      update[field] = null;
      continue;
    }
    if (field === 'creationDate' || field === 'modificationDate') {
      const d = typeof value === 'string' ? parseDate(value) : null;
      if (!d) form.fail('metadata', `has an invalid date for '${key}' (got ${JSON.stringify(value)})`);
      else update[field] = d;
      continue;
    }
    if (field === 'keywords' && Array.isArray(value) && value.every((k) => typeof k === 'string')) {
      update.keywords = value.join(', ');
      continue;
    }
    if (typeof value !== 'string') {
      form.fail('metadata', `has an invalid value for '${key}': expected a string`);
      continue;
    }
    update[field] = value;
  }
  return update;
}

/** userPassword, ownerPassword and the permission flags Gotenberg takes (each true by default). */
export function readEncrypt(form: GotenbergForm, mandatory: boolean): EncryptSpec | undefined {
  const userPassword = mandatory ? form.mandatoryString('userPassword') : form.string('userPassword');
  const ownerPassword = form.string('ownerPassword');
  const permissions: PdfPermissions = {
    print: form.bool('allowPrinting', true),
    copy: form.bool('allowCopying', true),
    modify: form.bool('allowModifying', true),
    annotate: form.bool('allowAnnotating', true),
  };
  // Finer permissions than DocFlow's four: only their default (allowed) can be honoured.
  for (const key of ['allowFillingForms', 'allowAssembling'])
    if (!form.bool(key, true)) form.fail(key, 'is not supported by DocFlow (only true); leave it out');
  if (!userPassword && !ownerPassword) return undefined;
  if (!userPassword) form.fail('userPassword', 'is required with ownerPassword');
  return { userPassword, ownerPassword, permissions };
}

/** Every finishing field a conversion or merge route takes; `extras` holds the `watermark` and `stamp` files. */
export function readFinishing(form: GotenbergForm, extras: UploadedFile[]): Finishing {
  const f: Finishing = {
    split: readSplit(form, false),
    ...readPageWork(form, extras),
    flatten: form.bool('flatten', false),
    pdfa: readPdfFormats(form),
    metadata: readMetadata(form, false),
    encrypt: readEncrypt(form, false),
  };
  checkCompatible(f);
  return f;
}

/** The marks and rotation Gotenberg applies to a produced PDF (its watermark, stamp and rotate fields). */
export function readPageWork(
  form: GotenbergForm,
  extras: UploadedFile[],
): Pick<Finishing, 'watermark' | 'stamp' | 'rotate'> {
  return {
    watermark: readMark(form, 'watermark', extras),
    stamp: readMark(form, 'stamp', extras),
    rotate: readRotate(form, false),
  };
}

/** Gotenberg's own rule: PDF/A forbids encryption. */
export function checkCompatible(f: Finishing): void {
  if (f.pdfa && f.encrypt) throw invalidForm('PDF/A format is incompatible with encryption');
}

/** An output as the PDF operations take it (already checked: it came out of one of them). */
const asInput = (o: NamedFile): ops.PreparedPdf => ({
  path: o.path,
  filename: o.name,
  size: 0,
  pages: o.pages ?? 0,
  wasEncrypted: false,
  version: null,
});

const stem = (name: string) => name.replace(/\.pdf$/i, '');

/** One output into several, named as Gotenberg names them: "<name>_0.pdf", "<name>_1.pdf"…, or "<name>.pdf" unified. */
async function split(job: ops.PdfJob, o: NamedFile, s: SplitSpec): Promise<NamedFile[]> {
  const input = asInput(o);
  let parts: ops.OutputFile[];
  if (s.mode === 'intervals') {
    parts = await ops.splitPdf(job, input, { mode: 'every', every: Number(s.span) });
  } else {
    const pages = selectPages(s.span, input.pages, 'splitSpan');
    if (s.unify) {
      const one = await ops.extractPages(job, input, pages.join(','));
      return [{ path: one.path, name: `${stem(o.name)}.pdf`, pages: one.pages }];
    }
    parts = await ops.splitPdf(job, input, { mode: 'ranges', ranges: pages.join(',') });
  }
  return parts.map((p, i) => ({ path: p.path, name: `${stem(o.name)}_${i}.pdf`, pages: p.pages }));
}

async function eachOutput(outputs: NamedFile[], step: (o: NamedFile) => Promise<ops.OutputFile>): Promise<NamedFile[]> {
  return Promise.all(
    outputs.map(async (o) => {
      const r = await step(o);
      return { path: r.path, name: o.name, pages: r.pages ?? o.pages };
    }),
  );
}

export async function finish(job: ops.PdfJob, outputs: NamedFile[], f: Finishing): Promise<NamedFile[]> {
  let out = outputs;
  if (f.split) {
    const s = f.split;
    out = (await Promise.all(out.map((o) => split(job, o, s)))).flat();
  }
  for (const kind of ['watermark', 'stamp'] as const) {
    const mark = f[kind];
    if (mark) out = await eachOutput(out, (o) => applyMark(job, asInput(o), mark, kind));
  }
  if (f.rotate) {
    const { angle, pages } = f.rotate;
    out = await eachOutput(out, (o) =>
      ops.rotatePages(job, asInput(o), angle, selectPages(pages, o.pages ?? 0, 'rotatePages').join(',')),
    );
  }
  if (f.flatten) out = await eachOutput(out, (o) => ops.flattenPdf(job, asInput(o)));
  const part = f.pdfa;
  if (part) out = await eachOutput(out, (o) => ops.toPdfa(job, asInput(o), part));
  if (f.metadata) {
    const m = f.metadata;
    out = await eachOutput(out, (o) => ops.updateMetadata(job, asInput(o), m));
  }
  if (f.embeds?.length) {
    const embeds = f.embeds;
    out = await eachOutput(out, (o) => ops.attachFiles(job, asInput(o), embeds));
  }
  if (f.encrypt) {
    const e = f.encrypt;
    out = await eachOutput(out, (o) => ops.protectPdf(job, asInput(o), e));
  }
  return out;
}

/** ExifTool's date form, as Gotenberg's metadata/read answers it. */
function exifDate(iso: string | null): string | undefined {
  const m = iso ? /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?$/.exec(iso) : null;
  if (!m) return iso ?? undefined;
  return `${m[1]}:${m[2]}:${m[3]} ${m[4]}${!m[5] || m[5] === 'Z' ? '+00:00' : m[5]}`;
}

/** DocFlow's metadata under the ExifTool names Gotenberg answers with; absent values are left out. */
export function gotenbergMetadata(m: PdfMetadata): Record<string, unknown> {
  const keywords = m.keywords
    ?.split(/\s*[,;]\s*/)
    .map((k) => k.trim())
    .filter(Boolean);
  const entries: Array<[string, unknown]> = [
    ['Author', m.author],
    ['CreateDate', exifDate(m.creationDate)],
    ['Creator', m.creator],
    ['Keywords', keywords && (keywords.length > 1 ? keywords : keywords[0])],
    ['ModDate', exifDate(m.modificationDate)],
    ['PDFVersion', m.pdfVersion ? Number(m.pdfVersion) : undefined],
    ['PageCount', m.pages],
    ['Producer', m.producer],
    ['Subject', m.subject],
    ['Title', m.title],
  ];
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined && v !== null && v !== ''));
}
