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
