import type { PageText } from './interfaces';
import { parsePageSet } from '../../pages';
import { assertPdf } from '../../pdf-sniff';
import { PdfJob, PreparedPdf, SourceFile } from './job';
import { Speculation, sameInputs, speculate } from './speculation';

const wholeDocument = (spec?: string) => !spec?.trim() || ['all', '*'].includes(spec.trim().toLowerCase());

/** Start extracting the whole text of an upload while it is checked (only when every page is asked). */
export async function speculateText(
  job: PdfJob,
  file: SourceFile,
  opts: { pageRange?: string; layout: boolean; words: boolean },
) {
  if (!wholeDocument(opts.pageRange) || job.engines.options.speculate === false) return undefined;
  await assertPdf(file.path, `"${file.filename}"`);
  return speculate(job, [file.path], async (ctx) => {
    const { value } = await job.engines.run(
      'extractText',
      (f) => f(file.path, { pages: 'all', layout: opts.layout, words: opts.words }, ctx),
      ctx.signal,
    );
    return value;
  });
}

export async function extractText(
  job: PdfJob,
  input: PreparedPdf,
  opts: { pageRange?: string; layout: boolean; words: boolean },
  spec?: Speculation<PageText[]>,
): Promise<{ pages: PageText[]; text: string }> {
  const pages = parsePageSet(opts.pageRange, input.pages, 'pageRange');
  let value: PageText[] | undefined;
  if (spec && sameInputs(spec, [input])) {
    const got = await spec.result;
    // Used only when the tool saw the same pages as the check.
    if (got.length === input.pages) value = got;
  } else spec?.cancel();
  value ??= (
    await job.engines.run(
      'extractText',
      (f) => f(input.path, { pages, layout: opts.layout, words: opts.words }, job.ctx),
      job.signal,
    )
  ).value;
  return { pages: value, text: value.map((p) => p.text).join('\n\n') };
}
