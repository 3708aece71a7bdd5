import { EngineError } from '../../errors';
import { parsePageSet } from '../../pages';
import { OutputFile, PdfJob, PreparedPdf } from './job';
import { boxesFor } from './page-boxes';

export async function renderPages(
  job: PdfJob,
  input: PreparedPdf,
  opts: { format: 'png' | 'jpg'; dpi: number; pages?: string; quality?: number; maxPixels: number },
): Promise<OutputFile[]> {
  const pages = parsePageSet(opts.pages, input.pages, 'pages');
  const boxes = await boxesFor(job, input, pages);
  for (const b of boxes) {
    const px = ((b.width * opts.dpi) / 72) * ((b.height * opts.dpi) / 72);
    if (px > opts.maxPixels) {
      const maxDpi = Math.floor(72 * Math.sqrt(opts.maxPixels / (b.width * b.height)));
      throw new EngineError(
        'INVALID_INPUT',
        `dpi: page ${b.page} at ${opts.dpi} dpi would be ${Math.round(px / 1e6)} megapixels (at most ${Math.round(opts.maxPixels / 1e6)}); use dpi ${maxDpi} or less`,
        { details: { field: 'dpi', max: maxDpi } },
      );
    }
  }
  const dir = await job.ws.subdir('render');
  const { value } = await job.engines.run(
    'render',
    (f) => f(input.path, dir, { format: opts.format, dpi: opts.dpi, pages, quality: opts.quality }, job.ctx),
    job.signal,
  );
  return value.map((r) => ({ path: r.path, name: `page-${r.page}`, pages: 1 }));
}
