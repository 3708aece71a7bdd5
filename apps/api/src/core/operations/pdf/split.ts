import { EngineError } from '../../errors';
import { expandRanges, parsePageRanges } from '../../pages';
import { OutputFile, PdfJob, PreparedPdf, out } from './job';

export type SplitMode = 'ranges' | 'every' | 'each';

export async function splitPdf(
  job: PdfJob,
  input: PreparedPdf,
  opts: { mode: SplitMode; ranges?: string; every?: number },
): Promise<OutputFile[]> {
  if (opts.mode === 'ranges') {
    if (!opts.ranges?.trim()) {
      throw new EngineError('INVALID_INPUT', 'ranges: required when mode is "ranges" (e.g. "1-3,5")', {
        details: { field: 'ranges' },
      });
    }
    const ranges = parsePageRanges(opts.ranges, input.pages, 'ranges');
    if (ranges.length > 500)
      throw new EngineError('INVALID_INPUT', 'ranges: at most 500 ranges', { details: { field: 'ranges' } });
    return Promise.all(
      ranges.map(async (r, i) => {
        const file = out(job, `part-${i + 1}.pdf`);
        const pages = expandRanges([r]);
        await job.engines.run('selectPages', (f) => f(input.path, file, pages, job.ctx), job.signal);
        return {
          path: file,
          name: r.from === r.to ? `page-${r.from}` : `pages-${r.from}-${r.to}`,
          pages: pages.length,
        };
      }),
    );
  }
  const every = opts.mode === 'each' ? 1 : opts.every;
  if (!every || !Number.isInteger(every) || every < 1) {
    throw new EngineError('INVALID_INPUT', 'every: required when mode is "every": a whole number of pages, 1 or more', {
      details: { field: 'every' },
    });
  }
  const dir = await job.ws.subdir('split');
  const { value: files } = await job.engines.run('splitEvery', (f) => f(input.path, dir, every, job.ctx), job.signal);
  return files.map((file, i) => {
    const from = i * every + 1;
    const to = Math.min(input.pages, from + every - 1);
    return { path: file, name: from === to ? `page-${from}` : `pages-${from}-${to}`, pages: to - from + 1 };
  });
}
