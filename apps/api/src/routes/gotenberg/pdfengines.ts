import type { FastifyInstance } from 'fastify';
import * as ops from '../../core/pdf/operations';
import {
  checkCompatible,
  finish,
  gotenbergMetadata,
  readEncrypt,
  readMetadata,
  readPdfFormats,
  readSplit,
  type Finishing,
} from './finishing';
import { invalidForm, type GotenbergForm } from './form';
import { uuidName, type NamedFile } from './output';
import { gotenbergRoute, type GotenbergContext } from './route';

/**
 * Gotenberg's /forms/pdfengines routes on DocFlow's PDF operations, each counted and metered as the DocFlow PDF
 * endpoint doing the same work. Every route takes one or more PDFs (Gotenberg's order: by name, numbers first); one
 * output is answered as itself, several as a zip.
 */

const pdfs = { min: 1, max: 20, extensions: ['.pdf'] };
/** Files each worked on alone: each is a call of the DocFlow endpoint (a merge of them is one). */
const eachPdf = { ...pdfs, perFile: true };

/** The uploads checked and opened, each output named after its upload (Gotenberg works on them in place). */
async function preparedInputs(ctx: GotenbergContext): Promise<Array<{ input: ops.PreparedPdf; name: string }>> {
  const inputs = await Promise.all(ctx.files.map((f) => ctx.prepare(f)));
  return inputs.map((input, i) => ({ input, name: ctx.files[i]!.filename }));
}

const asOutputs = (list: Array<{ input: ops.PreparedPdf; name: string }>): NamedFile[] =>
  list.map(({ input, name }) => ({ path: input.path, name, pages: input.pages }));

/** Read the form's finishing fields, then refuse the form if anything in it is wrong or unknown. */
function checked(form: GotenbergForm, f: Finishing): Finishing {
  form.check();
  checkCompatible(f);
  return f;
}

export function pdfEnginesRoutes(app: FastifyInstance): void {
  gotenbergRoute(app, {
    path: '/forms/pdfengines/merge',
    summary: 'Merge PDFs',
    fields:
      '`files` (PDFs, in name order), `metadata` (JSON), `flatten`, `pdfa` (PDF/A-2b), `pdfua` (false), `splitMode`/`splitSpan`/`splitUnify`, `userPassword`/`ownerPassword`',
    meterAs: { group: 'pdf', endpoint: '/pdf/merge' },
    files: pdfs,
    async handler(ctx) {
      const f = checked(ctx.form, {
        flatten: ctx.form.bool('flatten', false),
        pdfa: readPdfFormats(ctx.form),
        metadata: readMetadata(ctx.form, false),
        encrypt: readEncrypt(ctx.form, false),
      });
      const inputs = await Promise.all(ctx.files.map((file) => ctx.prepare(file)));
      // One file is its own merge, as in Gotenberg.
      const merged = inputs.length === 1 ? inputs[0]! : await ops.mergePdfs(ctx.job, inputs);
      return finish(ctx.job, [{ path: merged.path, name: uuidName(), pages: merged.pages }], f);
    },
  });

  gotenbergRoute(app, {
    path: '/forms/pdfengines/split',
    summary: 'Split PDFs',
    fields:
      '`files` (PDFs), `splitMode` (intervals, pages), `splitSpan`, `splitUnify`, `metadata` (JSON), `flatten`, `pdfa` (PDF/A-2b), `pdfua` (false), `splitMode`/`splitSpan`/`splitUnify`, `userPassword`/`ownerPassword`',
    meterAs: { group: 'pdf', endpoint: '/pdf/split' },
    files: eachPdf,
    async handler(ctx) {
      const f = checked(ctx.form, {
        split: readSplit(ctx.form, true),
        flatten: ctx.form.bool('flatten', false),
        pdfa: readPdfFormats(ctx.form),
        metadata: readMetadata(ctx.form, false),
        encrypt: readEncrypt(ctx.form, false),
      });
      return finish(ctx.job, asOutputs(await preparedInputs(ctx)), f);
    },
  });

  gotenbergRoute(app, {
    path: '/forms/pdfengines/flatten',
    summary: 'Flatten PDFs (forms and annotations)',
    fields: '`files` (PDFs)',
    meterAs: { group: 'pdf', endpoint: '/pdf/flatten' },
    files: eachPdf,
    async handler(ctx) {
      ctx.form.check();
      return finish(ctx.job, asOutputs(await preparedInputs(ctx)), { flatten: true });
    },
  });

  gotenbergRoute(app, {
    path: '/forms/pdfengines/convert',
    summary: 'PDFs to PDF/A',
    fields: '`files` (PDFs), `pdfa` (PDF/A-2b), `pdfua` (false)',
    meterAs: { group: 'pdf', endpoint: '/pdf/to-pdfa' },
    files: eachPdf,
    async handler(ctx) {
      const pdfa = readPdfFormats(ctx.form);
      ctx.form.check();
      if (!pdfa) throw invalidForm("either 'pdfa' or 'pdfua' form fields must be provided");
      return finish(ctx.job, asOutputs(await preparedInputs(ctx)), { pdfa });
    },
  });

  gotenbergRoute(app, {
    path: '/forms/pdfengines/metadata/read',
    summary: "Read PDFs' metadata",
    fields: '`files` (PDFs)',
    meterAs: { group: 'pdf', endpoint: '/pdf/metadata' },
    files: eachPdf,
    async handler(ctx) {
      ctx.form.check();
      const read = await Promise.all(
        (await preparedInputs(ctx)).map(async ({ input, name }) => {
          const m = await ops.readMetadata(ctx.job, input);
          return [name, gotenbergMetadata(m)] as const;
        }),
      );
      return { json: Object.fromEntries(read) };
    },
  });

  gotenbergRoute(app, {
    path: '/forms/pdfengines/metadata/write',
    summary: "Write PDFs' metadata",
    fields: '`files` (PDFs), `metadata` (JSON)',
    meterAs: { group: 'pdf', endpoint: '/pdf/metadata/update' },
    files: eachPdf,
    async handler(ctx) {
      const f = checked(ctx.form, { metadata: readMetadata(ctx.form, true) });
      return finish(ctx.job, asOutputs(await preparedInputs(ctx)), f);
    },
  });

  gotenbergRoute(app, {
    path: '/forms/pdfengines/encrypt',
    summary: 'Encrypt PDFs',
    fields: '`files` (PDFs), `userPassword`, `ownerPassword`',
    meterAs: { group: 'pdf', endpoint: '/pdf/protect' },
    files: eachPdf,
    async handler(ctx) {
      const f = checked(ctx.form, { encrypt: readEncrypt(ctx.form, true) });
      return finish(ctx.job, asOutputs(await preparedInputs(ctx)), f);
    },
  });
}
