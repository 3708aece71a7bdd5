import { EngineError } from '../../errors';
import { detectFormat } from '../convert/detect-format';
import type { PreparedPdf, SourceFile } from '../pdf/job';
import { OCR_IMAGE_FORMATS, type OcrImageFormat } from '../../ocr/image';
import type { OcrInput } from './common';

/**
 * What the upload is, from its bytes (never its name): a PDF is opened by `openPdf` (checked and counted against the
 * plan like every PDF input); an image goes to the OCR image decoder. Anything else is refused naming what is
 * accepted.
 */
export async function ocrInput(file: SourceFile, openPdf: () => Promise<PreparedPdf>): Promise<OcrInput> {
  const d = await detectFormat(file.path, file.size);
  if (d.format === 'pdf') return { kind: 'pdf', pdf: await openPdf() };
  if (d.method === 'magic' && (OCR_IMAGE_FORMATS as readonly string[]).includes(d.format ?? '')) {
    return { kind: 'image', path: file.path, format: d.format as OcrImageFormat, label: `"${file.filename}"` };
  }
  throw new EngineError(
    'UNSUPPORTED_FORMAT',
    `file: ${d.format ? `a ${d.format} file` : 'this file'} cannot be OCR-ed; send an image (png, jpg, tiff, bmp, webp) or a PDF`,
    { details: { field: 'file', detected: d.format, accepted: ['pdf', ...OCR_IMAGE_FORMATS] } },
  );
}
