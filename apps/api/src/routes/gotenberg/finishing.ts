import { stat } from 'node:fs/promises';
import type { TEndpointGroup } from '@docflow/contracts';
import type {
  Attachment,
  Bookmark,
  CompressionLevel,
  FacturXSpec,
  MetadataUpdate,
  PdfMetadata,
  PdfPermissions,
  PdfaPart,
} from '../../core/operations/pdf/interfaces';
import type { XmpRights } from '../../core/pdf/xmp-rights';
import { FACTURX_DOCUMENT_TYPES, FACTURX_LEVELS } from '../../core/pdf/e-invoice';
import { EngineError } from '../../core/errors';
import * as ops from '../../core/operations/pdf';
import { runSteps, type Step, type StepFile } from '../../core/operations/run-steps';
import type { UploadedFile } from '../../lib/uploads';
import type { GotenbergForm } from './form';
import { asGotenbergField, invalidForm, isTrue } from './form';
import { applyMark, readMarks, type GotenbergMark } from './marks';
import type { NamedFile } from './output';
import { selectPages } from './page-selection';

/**
 * The PDF steps Gotenberg's routes share after their own work (pdfengines, LibreOffice and Chromium alike): split,
 * watermark, stamp, rotate, flatten, image optimization, PDF/A, PDF/UA, metadata, Factur-X, encryption, in Gotenberg's
 * order (marks on each split part; metadata after PDF/A, which would strip it; encryption last). Each reads its Gotenberg fields and runs on DocFlow's PDF operations.
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
  /** Gotenberg's repeated watermark and stamp fields: every mark, applied in the order sent. */
  watermark?: GotenbergMark[];
  stamp?: GotenbergMark[];
  rotate?: RotateSpec;
  flatten?: boolean;
  /** optimizeImages/imageQuality: DocFlow's compression level for Gotenberg's JPEG quality. */
  optimize?: CompressionLevel;
  /** The PDF/A part asked (PDF/A-1b, 2b or 3b). */
  pdfa?: PdfaPart;
  /** PDF/UA-1 declared (the document must be tagged). */
  pdfua?: boolean;
  /** The outline written over the output's (merge's bookmarks fields), after PDF/A, which may drop it. */
  bookmarks?: Bookmark[];
  metadata?: MetadataUpdate;
  /** The Factur-X invoice embedded (the document is made PDF/A-3b for it). */
  facturX?: FacturXSpec & { xml: string };
  /** Files attached to each output (Gotenberg's `embeds`), after PDF/A and metadata, before encryption. */
  embeds?: Attachment[];
  encrypt?: EncryptSpec;
}

/**
 * The endpoint groups a form's finishing draws on beyond the route's own: each step is a DocFlow PDF operation (merge,
 * split, watermark, rotate, flatten, metadata, protect), so a key whose plan lacks `pdf` gets none of them through a conversion either.
 * Read from the raw fields, before the form is checked, so that a job is refused at its admission.
 */
export function finishingGroups(
  fields: Record<string, string>,
  files: number,
  extraFields: readonly string[] = [],
): TEndpointGroup[] {
  const set = (k: string) => (fields[k] ?? '') !== '';
  const on = (k: string) => isTrue(fields[k] ?? '');
  const pdfWork =
    (on('merge') && files > 1) ||
    set('splitMode') ||
    set('watermarkSource') ||
    set('stampSource') ||
    set('rotateAngle') ||
    on('flatten') ||
    on('optimizeImages') ||
    set('facturxConformanceLevel') ||
    set('metadata') ||
    set('userPassword') ||
    set('ownerPassword') ||
    set('bookmarks') ||
    on('autoIndexBookmarks') ||
    // Attaching files is /pdf/attach's work, whichever route asks it.
    extraFields.includes('embeds');
  return pdfWork ? ['pdf'] : [];
}

/** splitMode, splitSpan, splitUnify. */
export function readSplit(form: GotenbergForm, mandatory: boolean): SplitSpec | undefined {
  const mode = mandatory ? form.mandatoryString('splitMode') : form.string('splitMode');
  const span = (mandatory ? form.mandatoryString('splitSpan') : form.string('splitSpan')).replace(/\s+/g, '');
  const unify = form.bool('splitUnify', false);
  if (!mode && !span) {
    if (unify)
      form.fail('splitUnify', "is invalid (got 'true', resulting to unify is not available for split mode '')");
    return undefined;
  }
  if (mode !== 'intervals' && mode !== 'pages') {
    form.fail(
      'splitMode',
      `is invalid (got '${mode}', resulting to wrong value, expected either 'intervals' or 'pages')`,
    );
    return undefined;
  }
  if (!span) form.fail('splitSpan', 'is required');
  if (mode === 'intervals' && span) {
    const why = !/^[+-]?\d+$/.test(span)
      ? `strconv.Atoi: parsing ${JSON.stringify(span)}: invalid syntax`
      : Number(span) < 1
        ? 'value is inferior to 1'
        : undefined;
    if (why) form.fail('splitSpan', `is invalid (got '${span}', resulting to ${why})`);
  }
  if (unify && mode !== 'pages')
    form.fail('splitUnify', `is invalid (got 'true', resulting to unify is not available for split mode '${mode}')`);
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

/** pdfa as Gotenberg takes it (PDF/A-1b, PDF/A-2b, PDF/A-3b) and pdfua (PDF/UA-1). */
export function readPdfFormats(form: GotenbergForm): { pdfa?: PdfaPart; pdfua: boolean } {
  const pdfa = form.string('pdfa');
  const pdfua = form.bool('pdfua', false);
  const part = pdfaParts[pdfa.trim().toUpperCase()];
  // Gotenberg takes any value here and its engines refuse the ones they cannot make, in these words.
  if (pdfa && !part)
    form.refuseAfterCheck(
      'The requested PDF format is not supported, or no PDF engine could apply it. Valid formats include PDF/A-1b, PDF/A-2b, PDF/A-3b, and PDF/UA.',
    );
  return { pdfa: part, pdfua };
}

/** Gotenberg's JPEG quality when imageQuality is left out. */
const DEFAULT_IMAGE_QUALITY = 80;

/**
 * optimizeImages and imageQuality (1 to 100, JPEG quality). DocFlow compresses by level, not by quality: up to 50 is
 * its strong level (images at 72 dpi), above its medium one (150 dpi). `always`: the optimize route, which reads only
 * the quality.
 */
export function readOptimize(form: GotenbergForm, always = false): CompressionLevel | undefined {
  const on = form.bool('optimizeImages', false);
  const quality = form.boundedInteger('imageQuality', DEFAULT_IMAGE_QUALITY, [1, 100]);
  if (!on && !always) return undefined;
  return quality <= 50 ? 'high' : 'medium';
}

const isPdfa3 = (pdfa: string) => /^PDF\/A-3[abu]$/i.test(pdfa.trim());

/**
 * facturxXml (the file), facturxConformanceLevel, facturxDocumentType (INVOICE) and facturxVersion (1.0), with
 * Gotenberg's pairing rules and answers. `mandatory`: the factur-x route, for which both are required.
 */
export function readFacturX(
  form: GotenbergForm,
  extras: UploadedFile[],
  mandatory = false,
): (FacturXSpec & { xml: string }) | undefined {
  const level = form.string('facturxConformanceLevel');
  const type = form.string('facturxDocumentType', 'INVOICE');
  const version = form.string('facturxVersion', '1.0');
  const pdfa = form.string('pdfa');
  const xml = extras.find((f) => f.field === 'facturxXml');
  const knownLevel = FACTURX_LEVELS.find((l) => l === level);
  const knownType = FACTURX_DOCUMENT_TYPES.find((t) => t === type);
  if (level && !knownLevel)
    form.fail(
      'facturxConformanceLevel',
      `is invalid (got '${level}', resulting to unsupported conformance level '${level}')`,
    );
  if (!knownType)
    form.fail('facturxDocumentType', `is invalid (got '${type}', resulting to unsupported document type '${type}')`);
  if (mandatory && (!level || !xml)) throw invalidForm("'facturxConformanceLevel' and 'facturxXml' are both required");
  if (!level && !xml) return undefined;
  if (!level) throw invalidForm("'facturxConformanceLevel' is required when 'facturxXml' is provided");
  if (!xml) throw invalidForm("'facturxXml' file is required when 'facturxConformanceLevel' is set");
  if (pdfa && !isPdfa3(pdfa))
    throw invalidForm(`Factur-X requires a PDF/A-3 variant (PDF/A-3a, PDF/A-3b, or PDF/A-3u), got '${pdfa}'`);
  if (!knownLevel || !knownType) return undefined;
  return { conformanceLevel: knownLevel, documentType: knownType, version, xml: xml.path };
}

/**
 * Gotenberg's metadata keys (ExifTool tag names, any case) and what each writes. PDFVersion is taken and left alone,
 * as ExifTool leaves it (not a writable tag: the version is the file's own).
 */
type MetadataKey = keyof MetadataUpdate | 'pdfVersion';
const metadataKeys: Record<string, MetadataKey> = {
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
  copyright: 'copyright',
  marked: 'marked',
  trapped: 'trapped',
  pdfversion: 'pdfVersion',
};
const metadataNames =
  'Author, Copyright, CreationDate (CreateDate), Creator, Keywords, Marked, ModDate (ModifyDate), PDFVersion, Producer, Subject, Title, Trapped';

/** ISO 8601, or ExifTool's "2006:09:18 16:27:50-04:00". */
function parseDate(v: string): Date | null {
  const exif = /^(\d{4}):(\d{2}):(\d{2}) (\d{2}:\d{2}:\d{2})(.*)$/.exec(v.trim());
  const d = new Date(exif ? `${exif[1]}-${exif[2]}-${exif[3]}T${exif[4]}${exif[5] || 'Z'}` : v);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** ExifTool's boolean words for Marked (True/False, any case) and JSON booleans. */
function booleanOf(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === 'true';
  return undefined;
}

const trappedValues = { true: 'True', false: 'False', unknown: 'Unknown' } as const;

/** One metadata value into `update`, or a problem reported on the form. */
function readMetadataValue(
  form: GotenbergForm,
  update: MetadataUpdate,
  key: string,
  field: keyof MetadataUpdate,
  value: unknown,
) {
  const fail = (expected: string) =>
    form.fail('metadata', `has an invalid value for '${key}' (got ${JSON.stringify(value)}): expected ${expected}`);
  if (value === null) {
    update[field] = null;
    return;
  }
  switch (field) {
    case 'creationDate':
    case 'modificationDate': {
      const d = typeof value === 'string' ? parseDate(value) : null;
      if (!d) form.fail('metadata', `has an invalid date for '${key}' (got ${JSON.stringify(value)})`);
      else update[field] = d;
      return;
    }
    case 'marked': {
      const b = booleanOf(value);
      if (b === undefined) fail('true or false');
      else update.marked = b;
      return;
    }
    case 'trapped': {
      const word =
        typeof value === 'boolean' ? String(value) : typeof value === 'string' ? value.trim().toLowerCase() : '';
      const t = trappedValues[word as keyof typeof trappedValues];
      if (!t) fail("'True', 'False' or 'Unknown'");
      else update.trapped = t;
      return;
    }
    case 'keywords':
      if (Array.isArray(value) && value.every((k) => typeof k === 'string')) {
        update.keywords = value.join(', ');
        return;
      }
      break;
    default:
      break;
  }
  // ExifTool writes numbers and booleans given for a text tag as their text.
  const text = field as 'title' | 'author' | 'subject' | 'keywords' | 'creator' | 'producer' | 'copyright';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    update[text] = String(value);
  else fail('a string');
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
    if (!field) form.fail('metadata', `has the key '${key}', which DocFlow cannot write (valid: ${metadataNames})`);
    else if (field !== 'pdfVersion') readMetadataValue(form, update, key, field, value);
  }
  return update;
}

/**
 * userPassword, ownerPassword and the permission flags Gotenberg takes (each true by default). `mandatory`: the
 * encrypt route, which needs one of the passwords.
 */
export function readEncrypt(form: GotenbergForm, mandatory: boolean): EncryptSpec | undefined {
  const userPassword = form.string('userPassword');
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
  const restricted = Object.values(permissions).some((allowed) => !allowed);
  if (!userPassword && !ownerPassword) {
    if (mandatory) form.refuseAfterCheck("Invalid form data: a 'userPassword' or 'ownerPassword' is required");
    else if (restricted)
      form.refuseAfterCheck("Invalid form data: permission restrictions require a 'userPassword' or 'ownerPassword'");
    return undefined;
  }
  // An owner password alone, as Gotenberg: the PDF opens freely, its permissions hold.
  return { userPassword, ownerPassword, permissions };
}

/**
 * The document-wide finishing fields (flatten, optimizeImages, pdfa, pdfua, metadata, Factur-X, encryption) every
 * route producing or merging PDFs takes; `extras` holds the files of the `facturxXml` field.
 */
export function readDocumentFinishing(form: GotenbergForm, extras: UploadedFile[]): Finishing {
  return {
    flatten: form.bool('flatten', false),
    optimize: readOptimize(form),
    ...readPdfFormats(form),
    metadata: readMetadata(form, false),
    facturX: readFacturX(form, extras),
    encrypt: readEncrypt(form, false),
  };
}

/** Every finishing field a conversion or merge route takes; `extras` holds the `watermark`, `stamp`, `facturxXml` files. */
export function readFinishing(form: GotenbergForm, extras: UploadedFile[]): Finishing {
  const f: Finishing = {
    split: readSplit(form, false),
    ...readPageWork(form, extras),
    ...readDocumentFinishing(form, extras),
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
    watermark: readMarks(form, 'watermark', extras),
    stamp: readMarks(form, 'stamp', extras),
    rotate: readRotate(form, false),
  };
}

/** Gotenberg's own rules: PDF/A forbids encryption, and only PDF/A-3 allows attachments. */
export function checkCompatible(f: Finishing): void {
  if (f.pdfa && f.encrypt) throw invalidForm('PDF/A format is incompatible with encryption');
  if (f.embeds?.length && f.pdfa && f.pdfa !== 3)
    throw invalidForm(
      `PDF format 'PDF/A-${f.pdfa}b' does not support embedded files; only PDF/A-3 variants allow attachments`,
    );
}

/** A file as the PDF operations take it (already checked: it came out of one of them). */
const asInput = (f: StepFile): ops.PreparedPdf => ({
  path: f.path,
  filename: f.filename,
  size: f.size,
  pages: f.pages ?? 0,
  wasEncrypted: false,
  version: null,
});

const stem = (name: string) => name.replace(/\.pdf$/i, '');

/** One output into several, named as Gotenberg names them: "<name>_0.pdf", "<name>_1.pdf"…, or "<name>.pdf" unified. */
async function split(job: ops.PdfJob, o: NamedFile, s: SplitSpec): Promise<NamedFile[]> {
  const input = asInput({ path: o.path, filename: o.name, size: 0, pages: o.pages });
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

/**
 * PDF/UA alone: a tagged PDF keeps its own tags and is declared; an untagged one is tagged by LibreOffice, as
 * Gotenberg's LibreOffice engine does with every PDF it is given for PDF/UA.
 */
async function toPdfUa(job: ops.PdfJob, input: ops.PreparedPdf): Promise<ops.OutputFile> {
  try {
    return await ops.declarePdfUa(job, input);
  } catch (err) {
    const untagged =
      err instanceof EngineError &&
      err.code === 'INVALID_INPUT' &&
      (err.details as { field?: string } | undefined)?.field === 'pdfua';
    if (!untagged) throw err;
    return ops.toTaggedPdfa(job, input);
  }
}

/** The finishing after the split as steps, in Gotenberg's order, each a DocFlow PDF operation on one output. */
function finishingSteps(f: Finishing): Step[] {
  const steps: Step[] = [];
  const add = (label: string, run: (job: ops.PdfJob, input: ops.PreparedPdf) => Promise<ops.OutputFile>) =>
    steps.push({ label, run: (job, file) => run(job, asInput(file)) });
  for (const kind of ['watermark', 'stamp'] as const) {
    for (const mark of f[kind] ?? []) add(kind, (job, input) => applyMark(job, input, mark, kind));
  }
  if (f.rotate) {
    const { angle, pages } = f.rotate;
    add('rotate', (job, input) =>
      ops.rotatePages(job, input, angle, selectPages(pages, input.pages, 'rotatePages').join(',')),
    );
  }
  if (f.flatten) add('flatten', (job, input) => ops.flattenPdf(job, input));
  const level = f.optimize;
  if (level) add('optimize', (job, input) => ops.compressPdf(job, input, level));
  // Factur-X lives in PDF/A-3 (the part that may embed its XML): PDF/A-3b unless asked otherwise.
  const part = f.pdfa ?? (f.facturX ? 3 : undefined);
  // Both at once: LibreOffice makes the PDF/A tagged and PDF/UA-compliant, as Gotenberg's LibreOffice engine does
  // (Ghostscript's PDF/A would drop the tags the PDF/UA declaration needs).
  if (part && f.pdfua) add('pdfa', (job, input) => ops.toTaggedPdfa(job, input, part));
  else if (part) add('pdfa', (job, input) => ops.toPdfa(job, input, part));
  else if (f.pdfua) add('pdfua', toPdfUa);
  const bookmarks = f.bookmarks;
  if (bookmarks?.length)
    add('bookmarks', (job, input) =>
      asGotenbergField(ops.writeBookmarks(job, input, bookmarks), 'bookmarks', 'bookmarks'),
    );
  const metadata = f.metadata;
  if (metadata) add('metadata', (job, input) => ops.updateMetadata(job, input, metadata));
  const invoice = f.facturX;
  if (invoice) add('facturX', (job, input) => ops.embedFacturX(job, input, invoice));
  const embeds = f.embeds;
  if (embeds?.length) add('embeds', (job, input) => ops.attachFiles(job, input, embeds));
  const encrypt = f.encrypt;
  if (encrypt) add('encrypt', (job, input) => ops.protectPdf(job, input, encrypt));
  return steps;
}

/** The split first (one output may become several), then every output through the same steps with runSteps. */
export async function finish(job: ops.PdfJob, outputs: NamedFile[], f: Finishing): Promise<NamedFile[]> {
  let out = outputs;
  if (f.split) {
    const s = f.split;
    out = (await Promise.all(out.map((o) => split(job, o, s)))).flat();
  }
  const steps = finishingSteps(f);
  if (!steps.length) return out;
  return Promise.all(
    out.map(async (o) => {
      const input = { path: o.path, filename: o.name, size: (await stat(o.path)).size, pages: o.pages };
      const { file } = await runSteps(job, input, steps);
      return { path: file.path, name: o.name, pages: file.pages };
    }),
  );
}

/** ExifTool's date form, as Gotenberg's metadata/read answers it. */
function exifDate(iso: string | null): string | undefined {
  const m = iso ? /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?$/.exec(iso) : null;
  if (!m) return iso ?? undefined;
  return `${m[1]}:${m[2]}:${m[3]} ${m[4]}${!m[5] || m[5] === 'Z' ? '+00:00' : m[5]}`;
}

/** DocFlow's metadata under the ExifTool names Gotenberg answers with; absent values are left out. */
export function gotenbergMetadata(m: PdfMetadata, rights: XmpRights = {}): Record<string, unknown> {
  const keywords = m.keywords
    ?.split(/\s*[,;]\s*/)
    .map((k) => k.trim())
    .filter(Boolean);
  const entries: Array<[string, unknown]> = [
    ['Author', m.author],
    ['Copyright', rights.copyright],
    ['CreateDate', exifDate(m.creationDate)],
    ['Creator', m.creator],
    ['Keywords', keywords && (keywords.length > 1 ? keywords : keywords[0])],
    ['Marked', rights.marked],
    ['ModDate', exifDate(m.modificationDate)],
    ['PDFVersion', m.pdfVersion ? Number(m.pdfVersion) : undefined],
    ['PageCount', m.pages],
    ['Producer', m.producer],
    ['Subject', m.subject],
    ['Title', m.title],
    ['Trapped', rights.trapped],
  ];
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined && v !== null && v !== ''));
}
