import type { z } from 'zod';
import {
  ZAddMarginsFields,
  ZAutoRotateFields,
  ZCompressPdfFields,
  ZCropPdfFields,
  ZDeletePagesFields,
  ZExtractPagesFields,
  ZFillFormFields,
  ZMetadataUpdateFields,
  ZPageNumbersFields,
  ZPasswordOnlyFields,
  ZProtectPdfFields,
  ZRedactPdfFields,
  ZRemoveBlankPagesFields,
  ZReorderPdfFields,
  ZRotatePdfFields,
  ZUnlockPdfFields,
  ZWatermarkPdfFields,
  pdfPermissionNames,
} from '@docflow/contracts';
import { AppError } from '../../lib/app-error';
import type { FileDoc } from '../processing-endpoint';
import type { UploadedFile } from '../../lib/uploads';
import { compressPdf } from '../../core/operations/pdf/compress';
import { deletePages } from '../../core/operations/pdf/delete-pages';
import { extractPages } from '../../core/operations/pdf/extract-pages';
import { flattenPdf } from '../../core/operations/pdf/flatten';
import type { OutputFile, PdfJob, PreparedPdf } from '../../core/operations/pdf/job';
import { updateMetadata } from '../../core/operations/pdf/metadata-update';
import { numberPages } from '../../core/operations/pdf/page-numbers';
import { protectPdf } from '../../core/operations/pdf/protect';
import { reorderPages } from '../../core/operations/pdf/reorder-pages';
import { rotatePages } from '../../core/operations/pdf/rotate';
import { toPdfa } from '../../core/operations/pdf/to-pdfa';
import { unlockPdf } from '../../core/operations/pdf/unlock';
import { watermarkPdf } from '../../core/operations/pdf/watermark';
import type { MetadataUpdate, PdfPermissions } from '../../core/operations/pdf/interfaces';
import type { ImageMark, TextMark } from '../../core/pdf/stamp';
import { watermarkImage } from '../../core/pdf/watermark-image';
import { cropModeOf, cropPdf } from '../../core/operations/pdf/crop';
import { removeBlankPages } from '../../core/operations/pdf/remove-blank-pages';
import { autoRotatePages } from '../../core/operations/pdf/auto-rotate';
import { addMargins } from '../../core/operations/pdf/add-margins';
import { redactionHeader, redactPdf } from '../../core/operations/pdf/redact';
import { parseAreas } from '../../core/operations/pdf/redact/areas';
import { compileQuery } from '../../core/operations/pdf/redact/locate';
import { fillForm } from '../../core/operations/pdf/fill-form';

/**
 * The PDF-to-PDF operations as steps: one PDF in (prepared by the caller), one PDF out. Each is an endpoint of its
 * own (endpoints/pdf/index.ts makes one per step) and a pipeline stage, with the same fields schema (the catalogue's).
 */

/** Files a step may take beside its PDF (the watermark's `image`; never in a pipeline). */
export interface PdfStepExtras {
  image?: UploadedFile;
}

export interface PdfStepResult extends OutputFile {
  /** Answer headers the route adds (compress: sizes and engine). */
  headers?: Record<string, string | number>;
}

export interface PdfStep<F extends z.ZodObject = z.ZodObject> {
  fields: F;
  /** What the endpoint's reference page says beyond its catalogue summary. */
  description?: string;
  /** The PDF's field (and a step's extra file fields) in the reference; a PDF document by default. */
  files?: FileDoc;
  /** Checks across fields that the schema cannot express, before any work (throws a 422 naming the field). */
  check?(fields: z.output<F>, extras: PdfStepExtras): void;
  run(job: PdfJob, input: PreparedPdf, fields: z.output<F>, extras: PdfStepExtras): Promise<PdfStepResult>;
}

const step = <F extends z.ZodObject>(s: PdfStep<F>): PdfStep<F> => s;

/** What `permissions` (and the allow* booleans) leave allowed; an unknown name is a 422 naming it. */
export function permissionsFrom(f: {
  permissions?: string;
  allowPrint?: boolean;
  allowCopy?: boolean;
  allowModify?: boolean;
  allowAnnotate?: boolean;
}): PdfPermissions {
  const p: PdfPermissions = { print: true, copy: true, modify: true, annotate: true };
  if (f.permissions !== undefined) {
    const list = f.permissions
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean);
    if (list.length === 1 && list[0] === 'all') {
      /* everything allowed */
    } else {
      for (const k of pdfPermissionNames) p[k] = false;
      for (const item of list) {
        if (item === 'none') continue;
        if (!(pdfPermissionNames as readonly string[]).includes(item)) {
          throw new AppError(
            'INVALID_INPUT',
            `permissions: unknown permission "${item}" (valid: ${pdfPermissionNames.join(', ')}, all, none)`,
            {
              details: { field: 'permissions', valid: [...pdfPermissionNames, 'all', 'none'] },
            },
          );
        }
        p[item as keyof PdfPermissions] = true;
      }
    }
  }
  if (f.allowPrint !== undefined) p.print = f.allowPrint;
  if (f.allowCopy !== undefined) p.copy = f.allowCopy;
  if (f.allowModify !== undefined) p.modify = f.allowModify;
  if (f.allowAnnotate !== undefined) p.annotate = f.allowAnnotate;
  return p;
}

export const protectOptions = (f: z.output<typeof ZProtectPdfFields>) => ({
  userPassword: f.userPassword,
  ownerPassword: f.ownerPassword,
  permissions: permissionsFrom(f),
});

const CLEARABLE = ['title', 'author', 'subject', 'keywords', 'creator', 'producer'] as const;

/** The fields to set and to clear (`clear`: an unknown name is a 422); the modification date defaults to now. */
function metadataUpdate(fields: z.output<typeof ZMetadataUpdateFields>): MetadataUpdate {
  const update: MetadataUpdate = {};
  for (const k of CLEARABLE) if (fields[k] !== undefined) update[k] = fields[k];
  for (const item of (fields.clear ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)) {
    if (!(CLEARABLE as readonly string[]).includes(item)) {
      throw new AppError('INVALID_INPUT', `clear: unknown field "${item}" (valid: ${CLEARABLE.join(', ')})`, {
        details: { field: 'clear' },
      });
    }
    update[item as (typeof CLEARABLE)[number]] = null;
  }
  if (fields.creationDate) update.creationDate = new Date(fields.creationDate);
  update.modificationDate = fields.modificationDate ? new Date(fields.modificationDate) : new Date();
  return update;
}

export const pdfSteps = {
  '/pdf/extract-pages': step({
    fields: ZExtractPagesFields,
    run: (job, input, f) => extractPages(job, input, f.pages),
  }),
  '/pdf/delete-pages': step({
    fields: ZDeletePagesFields,
    run: (job, input, f) => deletePages(job, input, f.pages),
  }),
  '/pdf/rotate': step({
    fields: ZRotatePdfFields,
    run: (job, input, f) => rotatePages(job, input, f.angle, f.pages),
  }),
  '/pdf/reorder': step({
    fields: ZReorderPdfFields,
    run: (job, input, f) => reorderPages(job, input, f.order),
  }),
  '/pdf/watermark': step({
    description:
      'Send `text`, or an `image` file (PNG, JPEG, WebP…). Positions: center, the corners and edges, or diagonal; `repeat` tiles it over the page.',
    files: { description: 'The PDF document', extra: { image: 'Watermark image (instead of text)' } },
    fields: ZWatermarkPdfFields,
    check(f, { image }) {
      if (!f.text && !image) {
        throw new AppError('INVALID_INPUT', 'text: give a watermark text, or an image file in the "image" field', {
          details: { field: 'text' },
        });
      }
      if (f.text && image) {
        throw new AppError('INVALID_INPUT', 'text, image: give either a text or an image, not both', {
          details: { field: 'text' },
        });
      }
    },
    async run(job, input, f, { image }) {
      const mark: TextMark | ImageMark = image
        ? await watermarkImage(image.path, f.scale)
        : { kind: 'text', text: f.text!, fontSize: f.fontSize, font: f.font };
      return watermarkPdf(
        job,
        input,
        {
          mark,
          position: f.position,
          opacity: f.opacity,
          color: f.color,
          rotation: f.rotation,
          repeat: f.repeat,
          spacingX: f.spacingX,
          spacingY: f.spacingY,
          margin: f.margin,
        },
        f.pages,
      );
    },
  }),
  '/pdf/page-numbers': step({
    fields: ZPageNumbersFields,
    run: (job, input, f) =>
      numberPages(
        job,
        input,
        {
          position: f.position,
          format: f.format,
          startAt: f.startAt,
          fontSize: f.fontSize,
          color: f.color,
          margin: f.margin,
        },
        f.pages,
      ),
  }),
  '/pdf/protect': step({
    fields: ZProtectPdfFields,
    check: (f) => void permissionsFrom(f),
    run: (job, input, f) => protectPdf(job, input, protectOptions(f)),
  }),
  '/pdf/unlock': step({
    fields: ZUnlockPdfFields,
    run: (job, input) => unlockPdf(job, input),
  }),
  '/pdf/metadata/update': step({
    description:
      'Fields sent are set; fields listed in `clear` are removed; others are kept. The modification date is set to now unless given.',
    fields: ZMetadataUpdateFields,
    check: (f) => void metadataUpdate(f),
    run: (job, input, f) => updateMetadata(job, input, metadataUpdate(f)),
  }),
  '/pdf/compress': step({
    description:
      'Answers X-Original-Size and X-Compressed-Size. When no level makes the file smaller, the original comes back unchanged.',
    fields: ZCompressPdfFields,
    async run(job, input, f) {
      const r = await compressPdf(job, input, f.level);
      return {
        ...r,
        headers: {
          'X-Original-Size': r.originalSize,
          'X-Compressed-Size': r.compressedSize,
          'X-Compression-Engine': r.reduced ? r.engine : 'none',
        },
      };
    },
  }),
  '/pdf/flatten': step({
    fields: ZPasswordOnlyFields,
    run: (job, input) => flattenPdf(job, input),
  }),
  '/pdf/to-pdfa': step({
    fields: ZPasswordOnlyFields,
    run: (job, input) => toPdfa(job, input),
  }),
  '/pdf/crop': step({
    description:
      'mode=box crops to `box` ("x,y,width,height" in `unit`: pt, mm or in, from the bottom-left corner of the page as shown); ' +
      'mode=content crops to what is drawn (found by rendering the page) plus `margin`, and leaves a page with nothing drawn as it is; ' +
      'mode=scale scales each page, content and annotations, onto `size` paper (A3, A4, A5, Letter, Legal, Tabloid), aspect ratio kept, centred, ' +
      'landscape for a landscape page. MediaBox and CropBox are both set; the text stays text.',
    fields: ZCropPdfFields,
    check: (f) => void cropModeOf(f),
    run: (job, input, f) => cropPdf(job, input, f),
  }),
  '/pdf/add-margins': step({
    fields: ZAddMarginsFields,
    description:
      'Each page grows by the margins on the sides as it is shown (rotation applied): its MediaBox and CropBox are widened, ' +
      'the content stays where it is, unscaled, and its text stays text. `margin` sets every side; `top`, `right`, `bottom` and `left` one side each.',
    run: (job, input, f) => addMargins(job, input, f),
  }),
  '/pdf/redact': step({
    fields: ZRedactPdfFields,
    description:
      "Finds `text` (literal or a regular expression; `caseSensitive`, `wholeWords`) with the page's word boxes, and takes the `areas` given, then removes what lies under them from the file: " +
      "the glyphs are taken out of the page's drawing instructions (the text around them keeps its place), image pixels under them are painted with `color` " +
      '(an image in a format that cannot be repainted is removed whole), annotations and form fields that meet them are removed; `color` is then painted over them, with `label` on top. ' +
      '`scrub=true` also removes the document information and XMP metadata, attachments, JavaScript, and what optional-content layers hidden by default draw (hidden is not removed: a reader can switch a layer on); it may be sent alone. ' +
      'Answers X-Redactions: JSON {"matches": total matches of `text`, "pages": [{"page", "matches", "areas"}] for each page with any, "glyphs", "imagesPainted", "imagesRemoved", "hiddenContent", "annotationsRemoved", with ocr "ocrPages", with scrub "scrubbed": {"metadata", "attachments", "javascript", "hiddenLayers"}}, the page list cut short with "pagesTruncated": true past 8000 characters; X-Redaction-Matches: the total alone. ' +
      'a PDF where `text` matches nowhere is answered 200 with "matches": 0 and its content unchanged. ' +
      'A regular expression that runs too long (nested repetition such as "(a+)+") is refused: 422 naming `text`. ' +
      'The answer is read back before it is sent: a match still found where one was redacted (glyphs this redaction could not place, e.g. in forms nested more than 8 deep) is refused with 422 DOCUMENT_TOO_COMPLEX naming the pages, never answered only covered.',
    check(f) {
      if (!f.text && !f.areas?.trim() && !f.scrub) {
        throw new AppError('INVALID_INPUT', 'text: give a `text` to find, `areas` to redact, or `scrub=true`', {
          details: { field: 'text' },
        });
      }
      parseAreas(f.areas);
      if (f.text) compileQuery({ ...f, text: f.text });
    },
    async run(job, input, f) {
      const r = await redactPdf(job, input, f);
      return {
        ...r,
        headers: { 'X-Redactions': redactionHeader(r.report), 'X-Redaction-Matches': r.report.matches },
      };
    },
  }),
  '/pdf/forms/fill': step({
    fields: ZFillFormFields,
    description:
      'Fields are set by their full names (as POST /pdf/forms/fields lists them) and their appearances drawn, so every viewer shows the values: ' +
      'text in Helvetica when it fits Western European text, else in a Unicode font of the server, embedded as a subset (Latin, Greek, Cyrillic, Chinese, Japanese, Korean). ' +
      'Checkboxes take true/false (or yes/no, x, 1/0) or their export value, radio groups and choices an export value. A name the form lacks is refused with 422 naming it; ' +
      'a PDF without fields with 422 NO_FORM_FIELDS. Read-only fields are filled too (the flag stops a person typing, not the server). `flatten` burns the values into the pages.',
    run: (job, input, f) => fillForm(job, input, { values: f.values, flatten: f.flatten }),
  }),
  '/pdf/remove-blank-pages': step({
    description:
      'A page is blank when it has no text and at most `threshold` of it is darker than `whiteLevel`, measured on the rendered page in cells of 4 × 4 pt (so a scanned blank page with a little noise is blank, a page with a small drawn mark is not). ' +
      'Answers X-Removed-Pages (the removed page numbers, e.g. "2,5"; empty when none) and X-Removed-Count. A PDF whose every page is blank is refused: 422 ALL_PAGES_BLANK.',
    fields: ZRemoveBlankPagesFields,
    async run(job, input, f) {
      const r = await removeBlankPages(job, input, f);
      return { ...r, headers: { 'X-Removed-Pages': r.removed.join(','), 'X-Removed-Count': r.removed.length } };
    },
  }),
  '/pdf/auto-rotate': step({
    description:
      "Each page is rendered at 150 dpi and its orientation read by tesseract's orientation model; a page found sideways or upside down, with at least `confidence`, gets its rotation changed (its content is untouched: text stays text). A page with too little text to tell is left as it is. " +
      'Answers X-Rotated-Pages (each turned page and its clockwise turn, e.g. "2:90,5:180"; empty when none) and X-Rotated-Count.',
    fields: ZAutoRotateFields,
    async run(job, input, f) {
      const r = await autoRotatePages(job, input, f);
      const turned = r.rotated.map((p) => `${p.page}:${p.angle}`).join(',');
      return { ...r, headers: { 'X-Rotated-Pages': turned, 'X-Rotated-Count': r.rotated.length } };
    },
  }),
} satisfies Record<string, PdfStep>;

export type PdfStepPath = keyof typeof pdfSteps;
