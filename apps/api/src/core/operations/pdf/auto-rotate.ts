import { copyFile } from 'node:fs/promises';
import { parsePageSet } from '../../pages';
import { out, type OutputFile, type PdfJob, type PreparedPdf } from './job';
import { forEachGrayPage } from './page-ink';
import { turnPages } from './rotate';

export interface AutoRotateOptions {
  /** The detector's confidence from which a page is turned. */
  confidence: number;
  /** The pages that may be turned (default all). */
  pages?: string;
}

export interface AutoRotateResult extends OutputFile {
  /** Each page turned, with the clockwise degrees it was turned by. */
  rotated: Array<{ page: number; angle: 90 | 180 | 270 }>;
}

/**
 * 150 dpi: body text is ~25 pixels high there, plenty for tesseract's orientation model, at a quarter of the pixels of
 * 300 dpi (the detector's time follows the image's size).
 */
const ORIENTATION_DPI = 150;

/**
 * Turn pages upright, as OCRmyPDF's --rotate-pages does: each page is rendered and its orientation read by the
 * orientation chain (tesseract's OSD); a page read as sideways or upside down with enough confidence gets its /Rotate
 * changed by that turn, its content untouched (text stays text). A page the detector cannot read (too little text)
 * is left as it is.
 */
export async function autoRotatePages(
  job: PdfJob,
  input: PreparedPdf,
  o: AutoRotateOptions,
): Promise<AutoRotateResult> {
  const candidates = parsePageSet(o.pages, input.pages, 'pages');
  const rotated: AutoRotateResult['rotated'] = [];
  await forEachGrayPage(job, input, candidates, { dpi: ORIENTATION_DPI, name: 'orientation' }, async (page, file) => {
    const { value } = await job.engines.run(
      'detectOrientation',
      (f) => f(file, { dpi: ORIENTATION_DPI }, job.ctx),
      job.signal,
    );
    if (value.rotate !== 0 && value.confidence >= o.confidence) rotated.push({ page, angle: value.rotate });
  });
  const file = out(job, 'auto-rotated.pdf');
  await copyFile(await turnPages(job, input.path, rotated, 'auto-rotated'), file);
  return { path: file, name: 'auto-rotated', pages: input.pages, rotated: rotated.sort((a, b) => a.page - b.page) };
}
