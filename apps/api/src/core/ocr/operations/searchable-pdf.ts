import type { PdfJob, OutputFile } from '../../pdf/operations';
import { OcrInput, OcrRequest, checkLanguages, pool, recognize, sourcePages, tmp, widthOf, wordCount } from './common';

export interface SearchableResult extends OutputFile {
  confidence: number;
  /** Pages that got a text layer. */
  ocrPages: number[];
  /** PDF pages left as they were because they already had text. */
  skippedPages: number[];
}

/** A page with at least this many non-space characters of text is taken to be born digital. */
const HAS_TEXT_CHARS = 20;

/**
 * Image input: each frame becomes a page of its image with the invisible text over it (tesseract's PDF renderer, one
 * pass with the recognition). PDF input: the original pages are kept as they are and a text-only layer, from a
 * rendering of each page, is laid over them (qpdf overlay through the stamp chain), so the page looks exactly the same
 * and its vector content, fonts and image quality are untouched. Pages that already have text are skipped unless
 * `force`.
 */
export async function ocrSearchablePdf(
  job: PdfJob,
  input: OcrInput,
  req: OcrRequest & { force?: boolean },
): Promise<SearchableResult> {
  await checkLanguages(job, req.languages);
  let pages = await sourcePages(job, input, req);
  const skipped: number[] = [];
  if (input.kind === 'pdf' && !req.force) {
    const { value: texts } = await job.engines.run(
      'extractText',
      (f) => f(input.pdf.path, { pages: pages.map((p) => p.page), layout: false, words: false }, job.ctx),
      job.signal,
    );
    const born = new Set(texts.filter((t) => t.text.replace(/\s+/g, '').length >= HAS_TEXT_CHARS).map((t) => t.page));
    skipped.push(...pages.filter((p) => born.has(p.page)).map((p) => p.page));
    pages = pages.filter((p) => !born.has(p.page));
  }
  const textOnly = input.kind === 'pdf';
  const done = await pool(
    pages,
    widthOf(job),
    async (src) => {
      const pdf = tmp(job, `layer-${src.page}.pdf`);
      const r = await recognize(job, await src.gray(), req, src.dpi, { output: pdf, textOnly });
      return { page: src.page, pdf, confidence: r.confidence, words: wordCount(r) };
    },
    job,
  );
  const words = done.reduce((n, d) => n + d.words, 0);
  const confidence = words ? Math.round((done.reduce((n, d) => n + d.confidence * d.words, 0) / words) * 100) / 100 : 0;
  const output = tmp(job, 'searchable.pdf');
  const merge = async (inputs: string[], to: string) => {
    if (inputs.length === 1) return inputs[0]!;
    await job.engines.run('merge', (f) => f(inputs, to, job.ctx), job.signal);
    return to;
  };
  if (input.kind === 'image') {
    const file = await merge(
      done.map((d) => d.pdf),
      output,
    );
    return {
      path: file,
      name: 'searchable',
      pages: done.length,
      confidence,
      ocrPages: done.map((d) => d.page),
      skippedPages: [],
    };
  }
  if (!done.length) {
    return {
      path: input.pdf.path,
      name: 'searchable',
      pages: input.pdf.pages,
      confidence,
      ocrPages: [],
      skippedPages: skipped,
    };
  }
  const layer = await merge(
    done.map((d) => d.pdf),
    tmp(job, 'layers.pdf'),
  );
  await job.engines.run(
    'stamp',
    (f) =>
      f(
        input.pdf.path,
        output,
        { stamp: layer, map: done.map((d, i) => ({ page: d.page, stampPage: i + 1 })) },
        job.ctx,
      ),
    job.signal,
  );
  return {
    path: output,
    name: 'searchable',
    pages: input.pdf.pages,
    confidence,
    ocrPages: done.map((d) => d.page),
    skippedPages: skipped,
  };
}
