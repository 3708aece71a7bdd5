import { copyFile, rm } from 'node:fs/promises';
import { EngineError } from '../../errors';
import { parsePageSet } from '../../pages';
import { out, type OutputFile, type PdfJob, type PreparedPdf } from './job';

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
/** Pages rendered at once: their renderings wait on disk until read. */
const BATCH = 8;

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
  let read = 0;
  for (let i = 0; i < candidates.length; i += BATCH) {
    const batch = candidates.slice(i, i + BATCH);
    const dir = await job.ws.subdir(`orientation-${i}`);
    const { value: rendered } = await job.engines.run(
      'render',
      (f) => f(input.path, dir, { format: 'pgm', dpi: ORIENTATION_DPI, pages: batch }, job.ctx),
      job.signal,
    );
    for (const { page, path } of rendered) {
      const { value } = await job.engines.run(
        'detectOrientation',
        (f) => f(path, { dpi: ORIENTATION_DPI }, job.ctx),
        job.signal,
      );
      if (value.rotate !== 0 && value.confidence >= o.confidence) rotated.push({ page, angle: value.rotate });
      job.progress?.(++read, candidates.length);
    }
    if (rendered.length !== batch.length) throw new EngineError('ENGINE_FAILED', 'A page was not rendered', {});
    await rm(dir, { recursive: true, force: true });
  }
  // One rotate call per angle: each turns its pages on top of the rotation they already had.
  let current = input.path;
  for (const angle of [90, 180, 270] as const) {
    const pages = rotated.filter((r) => r.angle === angle).map((r) => r.page);
    if (!pages.length) continue;
    const next = out(job, `auto-rotated-${angle}.pdf`);
    await job.engines.run('rotate', (f) => f(current, next, { angle, pages }, job.ctx), job.signal);
    current = next;
  }
  const file = out(job, 'auto-rotated.pdf');
  await copyFile(current, file);
  return { path: file, name: 'auto-rotated', pages: input.pages, rotated: rotated.sort((a, b) => a.page - b.page) };
}
