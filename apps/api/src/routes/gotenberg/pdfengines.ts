import type { FastifyInstance } from 'fastify';
import { readBookmarks } from '../../core/operations/pdf/bookmarks-read';
import type { PreparedPdf } from '../../core/operations/pdf/job';
import { mergePdfs } from '../../core/operations/pdf/merge';
import { readMetadata as readPdfMetadata } from '../../core/operations/pdf/metadata-read';
import { readPdfXmpRights } from '../../core/operations/pdf/read-xmp-rights';
import {
  checkCompatible,
  finish,
  gotenbergMetadata,
  readDocumentFinishing,
  readEncrypt,
  readFacturX,
  readMetadata,
  readOptimize,
  readPageWork,
  readPdfFormats,
  readRotate,
  readSplit,
  type Finishing,
} from './finishing';
import { bookmarksFor, mergedOutline, readBookmarksField, readMergeOutline } from './bookmarks';
import { readEmbeds } from './embeds';
import { FIELD_DOCS, FINISHING_DOCS, fieldDocs } from './field-docs';
import { invalidForm, type GotenbergForm } from './form';
import { readMarks, type MarkKind } from './marks';
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
async function preparedInputs(ctx: GotenbergContext): Promise<Array<{ input: PreparedPdf; name: string }>> {
  const inputs = await Promise.all(ctx.files.map((f) => ctx.prepare(f)));
  return inputs.map((input, i) => ({ input, name: ctx.files[i]!.filename }));
}

const asOutputs = (list: Array<{ input: PreparedPdf; name: string }>): NamedFile[] =>
  list.map(({ input, name }) => ({ path: input.path, name, pages: input.pages }));

/** Read the form's finishing fields, then refuse the form if anything in it is wrong or unknown. */
function checked(form: GotenbergForm, f: Finishing): Finishing {
  form.check();
  checkCompatible(f);
  return f;
}

/** The watermark and stamp routes: one mark, from a text, an image or a PDF, on each PDF sent. */
function markRoute(app: FastifyInstance, kind: MarkKind, summary: string): void {
  gotenbergRoute(app, {
    path: `/forms/pdfengines/${kind}`,
    summary,
    fields:
      `${FIELD_DOCS.pdfs}, \`${kind}Source\` (text, image, pdf), \`${kind}Expression\` (the text), \`${kind}Pages\`, ` +
      `\`${kind}Options\` (JSON of pdfcpu options: font, points, color, rotation, opacity, scale, position), and the ` +
      `image or PDF as the \`${kind}\` file; each field sent once per ${kind} for several (aligned by position)`,
    meterAs: { group: 'pdf', endpoint: '/pdf/watermark' },
    files: { ...eachPdf, max: eachPdf.max + 10, extraFields: [kind] },
    async handler(ctx) {
      const marks = readMarks(ctx.form, kind, ctx.extras);
      ctx.form.check();
      if (!marks.length) throw invalidForm(`form field '${kind}Source' is required`);
      return finish(ctx.job, asOutputs(await preparedInputs(ctx)), { [kind]: marks });
    },
  });
}

export function pdfEnginesRoutes(app: FastifyInstance): void {
  gotenbergRoute(app, {
    path: '/forms/pdfengines/merge',
    summary: 'Merge PDFs',
    fields: fieldDocs(
      [
        FIELD_DOCS.pdfs,
        '`bookmarks` (JSON: the merged outline as a list of `{ "title", "page", "children" }`, or lists by file name, their pages moved to where each file lands)',
        "`autoIndexBookmarks` (each file's own outline kept, moved to its pages)",
        '`titleBookmarks` (one entry per file, its Title or else its name, its outline beneath)',
      ],
      FINISHING_DOCS.filter((f) => f !== 'split'),
    ),
    meterAs: { group: 'pdf', endpoint: '/pdf/merge' },
    files: { ...pdfs, max: pdfs.max + 23, extraFields: ['watermark', 'stamp', 'facturxXml', 'embeds'] },
    async handler(ctx) {
      const outline = readMergeOutline(ctx.form);
      const f = checked(ctx.form, {
        ...readPageWork(ctx.form, ctx.extras),
        ...readDocumentFinishing(ctx.form, ctx.extras),
        embeds: readEmbeds(ctx.form, ctx.extras),
      });
      const inputs = await Promise.all(ctx.files.map((file) => ctx.prepare(file)));
      const bookmarks = await mergedOutline(ctx.job, inputs, outline);
      // One file is its own merge, as in Gotenberg.
      const merged = inputs.length === 1 ? inputs[0]! : await mergePdfs(ctx.job, inputs);
      return finish(ctx.job, [{ path: merged.path, name: uuidName(), pages: merged.pages }], { ...f, bookmarks });
    },
  });

  gotenbergRoute(app, {
    path: '/forms/pdfengines/split',
    summary: 'Split PDFs',
    fields: fieldDocs([FIELD_DOCS.pdfs], FINISHING_DOCS),
    meterAs: { group: 'pdf', endpoint: '/pdf/split' },
    files: { ...eachPdf, max: eachPdf.max + 23, extraFields: ['watermark', 'stamp', 'facturxXml', 'embeds'] },
    async handler(ctx) {
      const f = checked(ctx.form, {
        split: readSplit(ctx.form, true),
        ...readPageWork(ctx.form, ctx.extras),
        ...readDocumentFinishing(ctx.form, ctx.extras),
        embeds: readEmbeds(ctx.form, ctx.extras),
      });
      return finish(ctx.job, asOutputs(await preparedInputs(ctx)), f);
    },
  });

  gotenbergRoute(app, {
    path: '/forms/pdfengines/flatten',
    summary: 'Flatten PDFs (forms and annotations)',
    fields: FIELD_DOCS.pdfs,
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
    fields: fieldDocs([FIELD_DOCS.pdfs], ['pdfa', 'pdfua']),
    meterAs: { group: 'pdf', endpoint: '/pdf/to-pdfa' },
    files: eachPdf,
    async handler(ctx) {
      const formats = readPdfFormats(ctx.form);
      ctx.form.check();
      if (!formats.pdfa && !formats.pdfua) throw invalidForm("either 'pdfa' or 'pdfua' form fields must be provided");
      return finish(ctx.job, asOutputs(await preparedInputs(ctx)), formats);
    },
  });

  gotenbergRoute(app, {
    path: '/forms/pdfengines/optimize',
    summary: "Optimize PDFs' images",
    fields: fieldDocs([FIELD_DOCS.pdfs], ['optimize']),
    meterAs: { group: 'pdf', endpoint: '/pdf/compress' },
    files: eachPdf,
    async handler(ctx) {
      // The route optimizes whatever optimizeImages says, as Gotenberg's does: only the quality counts.
      const optimize = readOptimize(ctx.form, true);
      ctx.form.check();
      return finish(ctx.job, asOutputs(await preparedInputs(ctx)), { optimize });
    },
  });

  gotenbergRoute(app, {
    path: '/forms/pdfengines/factur-x',
    summary: 'PDFs to Factur-X / ZUGFeRD invoices',
    fields: fieldDocs([FIELD_DOCS.pdfs], ['facturx', 'pdfa', 'pdfua']),
    meterAs: { group: 'pdf', endpoint: '/pdf/to-pdfa' },
    files: { ...eachPdf, max: eachPdf.max + 1, extraFields: ['facturxXml'] },
    async handler(ctx) {
      const formats = readPdfFormats(ctx.form);
      const facturX = readFacturX(ctx.form, ctx.extras, true);
      ctx.form.check();
      return finish(ctx.job, asOutputs(await preparedInputs(ctx)), { ...formats, facturX });
    },
  });

  gotenbergRoute(app, {
    path: '/forms/pdfengines/metadata/read',
    summary: "Read PDFs' metadata",
    fields: FIELD_DOCS.pdfs,
    meterAs: { group: 'pdf', endpoint: '/pdf/metadata' },
    files: eachPdf,
    async handler(ctx) {
      ctx.form.check();
      const read = await Promise.all(
        (await preparedInputs(ctx)).map(async ({ input, name }) => {
          const [m, rights] = await Promise.all([readPdfMetadata(ctx.job, input), readPdfXmpRights(input)]);
          return [name, gotenbergMetadata(m, rights)] as const;
        }),
      );
      return { json: Object.fromEntries(read) };
    },
  });

  gotenbergRoute(app, {
    path: '/forms/pdfengines/metadata/write',
    summary: "Write PDFs' metadata",
    fields: fieldDocs([FIELD_DOCS.pdfs], ['metadata']),
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
    fields: fieldDocs([FIELD_DOCS.pdfs], ['encrypt']),
    meterAs: { group: 'pdf', endpoint: '/pdf/protect' },
    files: eachPdf,
    async handler(ctx) {
      const f = checked(ctx.form, { encrypt: readEncrypt(ctx.form, true) });
      return finish(ctx.job, asOutputs(await preparedInputs(ctx)), f);
    },
  });

  gotenbergRoute(app, {
    path: '/forms/pdfengines/rotate',
    summary: 'Rotate pages of PDFs',
    fields: fieldDocs([FIELD_DOCS.pdfs], ['rotate']),
    meterAs: { group: 'pdf', endpoint: '/pdf/rotate' },
    files: eachPdf,
    async handler(ctx) {
      const f = checked(ctx.form, { rotate: readRotate(ctx.form, true) });
      return finish(ctx.job, asOutputs(await preparedInputs(ctx)), f);
    },
  });

  markRoute(app, 'watermark', 'Watermark PDFs (beneath the content)');
  markRoute(app, 'stamp', 'Stamp PDFs (over the content)');

  gotenbergRoute(app, {
    path: '/forms/pdfengines/bookmarks/read',
    summary: "Read PDFs' bookmarks",
    fields: `${FIELD_DOCS.pdfs}. Answers a JSON object by file name of \`{ "title", "page", "children" }\` lists`,
    meterAs: { group: 'pdf', endpoint: '/pdf/metadata' },
    files: eachPdf,
    async handler(ctx) {
      ctx.form.check();
      const read = await Promise.all(
        (await preparedInputs(ctx)).map(async ({ input, name }) => [name, await readBookmarks(ctx.job, input)]),
      );
      return { json: Object.fromEntries(read) };
    },
  });

  gotenbergRoute(app, {
    path: '/forms/pdfengines/bookmarks/write',
    summary: "Write PDFs' bookmarks",
    fields: fieldDocs([
      FIELD_DOCS.pdfs,
      '`bookmarks` (JSON: a list of `{ "title", "page", "children" }` for every PDF, or an object of such lists by file name)',
    ]),
    meterAs: { group: 'pdf', endpoint: '/pdf/metadata/update' },
    files: eachPdf,
    async handler(ctx) {
      const bookmarks = readBookmarksField(ctx.form);
      ctx.form.check();
      // Each PDF its own list (by file name, or the one list for all): the finishing's bookmarks step, per file.
      const outputs = asOutputs(await preparedInputs(ctx));
      const finished = await Promise.all(
        outputs.map((o) => finish(ctx.job, [o], { bookmarks: bookmarks && bookmarksFor(bookmarks, o.name) })),
      );
      return finished.flat();
    },
  });

  gotenbergRoute(app, {
    path: '/forms/pdfengines/embed',
    summary: 'Embed files in PDFs (attachments)',
    fields: fieldDocs([
      FIELD_DOCS.pdfs,
      '`embeds` (the files to attach, under their names), `embedsMetadata` (JSON by file name: `mimeType`, `relationship` (AFRelationship: Source, Data, Alternative, Supplement, Unspecified))',
    ]),
    meterAs: { group: 'pdf', endpoint: '/pdf/metadata/update' },
    files: { ...eachPdf, max: eachPdf.max + 20, extraFields: ['embeds'] },
    async handler(ctx) {
      const embeds = readEmbeds(ctx.form, ctx.extras);
      ctx.form.check();
      return finish(ctx.job, asOutputs(await preparedInputs(ctx)), { embeds });
    },
  });
}
