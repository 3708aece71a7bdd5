import { EngineError } from '../../errors';
import { parsePageList, parsePageOrder, parsePageRanges, parsePageSet, expandRanges } from '../../pages';
import { assertPdf } from '../../pdf-sniff';
import { OutputFile, PdfJob, PreparedPdf, SourceFile, out, pageLimitError } from './job';
import { Speculation, sameInputs, speculate } from './speculation';

/** Start merging the raw uploads while they are checked (see Speculation). */
export async function speculateMerge(job: PdfJob, files: SourceFile[]): Promise<Speculation<string> | undefined> {
  if (job.engines.options.speculate === false) return undefined;
  await Promise.all(files.map((f, i) => assertPdf(f.path, `files[${i + 1}] ("${f.filename}")`)));
  const file = out(job, 'merged.pdf');
  return speculate(
    job,
    files.map((f) => f.path),
    async (ctx) => {
      await job.engines.run(
        'merge',
        (f) =>
          f(
            files.map((x) => x.path),
            file,
            ctx,
          ),
        ctx.signal,
      );
      return file;
    },
  );
}

export async function mergePdfs(job: PdfJob, inputs: PreparedPdf[], spec?: Speculation<string>): Promise<OutputFile> {
  const total = inputs.reduce((n, i) => n + i.pages, 0);
  if (job.maxPages !== null && total > job.maxPages) {
    spec?.cancel();
    throw pageLimitError('The merged document', total, job.maxPages);
  }
  if (spec && sameInputs(spec, inputs)) return { path: await spec.result, name: 'merged', pages: total };
  spec?.cancel();
  const file = out(job, 'merged.pdf');
  await job.engines.run(
    'merge',
    (f) =>
      f(
        inputs.map((i) => i.path),
        file,
        job.ctx,
      ),
    job.signal,
  );
  return { path: file, name: 'merged', pages: total };
}

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

export async function extractPages(job: PdfJob, input: PreparedPdf, spec: string | undefined): Promise<OutputFile> {
  if (!spec?.trim())
    throw new EngineError('INVALID_INPUT', 'pages: required (e.g. "1-3,5")', { details: { field: 'pages' } });
  const pages = parsePageList(spec, input.pages, 'pages');
  const file = out(job, 'extracted.pdf');
  await job.engines.run('selectPages', (f) => f(input.path, file, pages, job.ctx), job.signal);
  return { path: file, name: 'extracted', pages: pages.length };
}

export async function deletePages(job: PdfJob, input: PreparedPdf, spec: string | undefined): Promise<OutputFile> {
  if (!spec?.trim())
    throw new EngineError('INVALID_INPUT', 'pages: required (e.g. "2,4-6")', { details: { field: 'pages' } });
  const drop = new Set(parsePageSet(spec, input.pages, 'pages'));
  const keep = Array.from({ length: input.pages }, (_, i) => i + 1).filter((p) => !drop.has(p));
  if (keep.length === 0) {
    throw new EngineError('INVALID_INPUT', 'pages: cannot delete every page; a PDF keeps at least one', {
      details: { field: 'pages' },
    });
  }
  const file = out(job, 'deleted.pdf');
  await job.engines.run('selectPages', (f) => f(input.path, file, keep, job.ctx), job.signal);
  return { path: file, name: 'pages-deleted', pages: keep.length };
}

export async function reorderPages(job: PdfJob, input: PreparedPdf, spec: string | undefined): Promise<OutputFile> {
  const order = parsePageOrder(spec, input.pages, 'order');
  const file = out(job, 'reordered.pdf');
  await job.engines.run('selectPages', (f) => f(input.path, file, order, job.ctx), job.signal);
  return { path: file, name: 'reordered', pages: order.length };
}

export async function rotatePages(
  job: PdfJob,
  input: PreparedPdf,
  angle: 90 | 180 | 270,
  spec: string | undefined,
): Promise<OutputFile> {
  const pages = parsePageSet(spec, input.pages, 'pages');
  const file = out(job, 'rotated.pdf');
  await job.engines.run('rotate', (f) => f(input.path, file, { angle, pages }, job.ctx), job.signal);
  return { path: file, name: 'rotated', pages: input.pages };
}
