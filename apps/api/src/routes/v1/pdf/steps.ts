import type { z } from 'zod';
import {
  ZCompressPdfFields,
  ZCropPdfFields,
  ZDeletePagesFields,
  ZExtractPagesFields,
  ZMetadataUpdateFields,
  ZPageNumbersFields,
  ZPasswordOnlyFields,
  ZProtectPdfFields,
  ZRemoveBlankPagesFields,
  ZReorderPdfFields,
  ZRotatePdfFields,
  ZUnlockPdfFields,
  ZWatermarkPdfFields,
  pdfPermissionNames,
} from '@docflow/contracts';
import { AppError } from '../../../lib/app-error';
import type { UploadedFile } from '../../../lib/uploads';
import * as ops from '../../../core/pdf/operations';
import type { MetadataUpdate, PdfPermissions } from '../../../core/interfaces';
import type { ImageMark, TextMark } from '../../../core/pdf/stamp';
import { watermarkImage } from '../../../core/pdf/watermark-image';
import { cropModeOf, cropPdf } from '../../../core/operations/pdf/crop';
import { removeBlankPages } from '../../../core/operations/pdf/remove-blank-pages';

/**
 * The PDF-to-PDF operations as steps: one PDF in (prepared by the caller), one PDF out. The routes of
 * routes/v1/pdf and the pipeline's stages run the same step with the same fields schema (the catalogue's).
 */

/** Files a step may take beside its PDF (the watermark's `image`; never in a pipeline). */
export interface PdfStepExtras {
  image?: UploadedFile;
}

export interface PdfStepResult extends ops.OutputFile {
  /** Answer headers the route adds (compress: sizes and engine). */
  headers?: Record<string, string | number>;
}

export interface PdfStep<F extends z.ZodObject = z.ZodObject> {
  fields: F;
  /** Checks across fields that the schema cannot express, before any work (throws a 422 naming the field). */
  check?(fields: z.output<F>, extras: PdfStepExtras): void;
  run(job: ops.PdfJob, input: ops.PreparedPdf, fields: z.output<F>, extras: PdfStepExtras): Promise<PdfStepResult>;
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
    run: (job, input, f) => ops.extractPages(job, input, f.pages),
  }),
  '/pdf/delete-pages': step({
    fields: ZDeletePagesFields,
    run: (job, input, f) => ops.deletePages(job, input, f.pages),
  }),
  '/pdf/rotate': step({
    fields: ZRotatePdfFields,
    run: (job, input, f) => ops.rotatePages(job, input, f.angle, f.pages),
  }),
  '/pdf/reorder': step({
    fields: ZReorderPdfFields,
    run: (job, input, f) => ops.reorderPages(job, input, f.order),
  }),
  '/pdf/watermark': step({
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
      return ops.watermarkPdf(
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
      ops.numberPages(
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
    run: (job, input, f) => ops.protectPdf(job, input, protectOptions(f)),
  }),
  '/pdf/unlock': step({
    fields: ZUnlockPdfFields,
    run: (job, input) => ops.unlockPdf(job, input),
  }),
  '/pdf/metadata/update': step({
    fields: ZMetadataUpdateFields,
    check: (f) => void metadataUpdate(f),
    run: (job, input, f) => ops.updateMetadata(job, input, metadataUpdate(f)),
  }),
  '/pdf/compress': step({
    fields: ZCompressPdfFields,
    async run(job, input, f) {
      const r = await ops.compressPdf(job, input, f.level);
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
    run: (job, input) => ops.flattenPdf(job, input),
  }),
  '/pdf/to-pdfa': step({
    fields: ZPasswordOnlyFields,
    run: (job, input) => ops.toPdfa(job, input),
  }),
  '/pdf/crop': step({
    fields: ZCropPdfFields,
    check: (f) => void cropModeOf(f),
    run: (job, input, f) => cropPdf(job, input, f),
  }),
  '/pdf/remove-blank-pages': step({
    fields: ZRemoveBlankPagesFields,
    async run(job, input, f) {
      const r = await removeBlankPages(job, input, f);
      return { ...r, headers: { 'X-Removed-Pages': r.removed.join(','), 'X-Removed-Count': r.removed.length } };
    },
  }),
} satisfies Record<string, PdfStep>;

export type PdfStepPath = keyof typeof pdfSteps;
