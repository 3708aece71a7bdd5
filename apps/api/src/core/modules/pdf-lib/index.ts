import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { AFRelationship, PDFDocument, PDFName, PDFDict, PDFHexString, degrees, type PDFPage } from 'pdf-lib';
import { defineModule, type EngineContext } from '../../engine-module';
import { EngineError, INVALID_PDF_MESSAGE } from '../../errors';
import type { Engine, OpContext } from '../../interfaces';
import type { MetadataUpdate, PageBox, PdfMetadata } from '../../operations/pdf/interfaces';
import { syncXmp } from '../../pdf/xmp';
import { embedFacturX } from '../../pdf/e-invoice';
import { declarePdfUa } from '../../pdf/pdfua';
import { fillForm, readFormFields } from './forms';
import { setOutline } from './outline';
import { resizePage } from './page-geometry';

const ZConfig = z.object({
  /** Largest input pdf-lib loads (it works in memory, on the event loop): bigger files are left to other engines. */
  MAX_INPUT_MB: z.coerce.number().min(1).default(100),
});
type PdfLibConfig = z.infer<typeof ZConfig>;

/** Normalise /Rotate to 0, 90, 180, 270. */
const norm = (a: number) => (((Math.round(a / 90) * 90) % 360) + 360) % 360;

export function pageBoxOf(page: PDFPage, n: number): PageBox {
  const b = page.getTrimBox();
  return { page: n, x: b.x, y: b.y, width: b.width, height: b.height, rotate: norm(page.getRotation().angle) };
}

/**
 * Where to draw an upright (as displayed) stamp of the page's visible size onto a page with /Rotate: the stamp is
 * turned against the page's rotation and moved back into the box.
 */
export function uprightPlacement(box: PageBox): { x: number; y: number; rotate: number } {
  switch (box.rotate) {
    case 90:
      return { x: box.x + box.width, y: box.y, rotate: 90 };
    case 180:
      return { x: box.x + box.width, y: box.y + box.height, rotate: 180 };
    case 270:
      return { x: box.x, y: box.y + box.height, rotate: 270 };
    default:
      return { x: box.x, y: box.y, rotate: 0 };
  }
}

/** pdf-lib keeps getInfoDict() private; it creates the Info dictionary when missing. */
const infoDictOf = (doc: PDFDocument) => (doc as unknown as { getInfoDict(): PDFDict }).getInfoDict();

const toIso = (d: Date | undefined) =>
  d && !Number.isNaN(d.getTime()) ? d.toISOString().replace(/\.\d{3}Z$/, 'Z') : null;

export const pdfLibModule = defineModule<PdfLibConfig>({
  id: 'pdf-lib',
  description:
    'pdf-lib (pure JavaScript, in-process): metadata, page crop and scale, form fields, Factur-X, PDF/UA declaration, and a fallback for page assembly, rotation, stamping, form flattening',
  license: 'MIT',
  envPrefix: 'PDFLIB',
  configSchema: ZConfig,
  operations: [
    'pageBoxes',
    'merge',
    'selectPages',
    'splitEvery',
    'rotate',
    'stamp',
    'writeOutline',
    'readMetadata',
    'writeMetadata',
    'resizePages',
    'flatten',
    'readFormFields',
    'fillForm',
    'embedFacturX',
    'declarePdfUa',
    'attachFiles',
  ],
  async healthCheck() {
    await PDFDocument.create();
    return { ok: true, version: '1.x' };
  },
  create(config: PdfLibConfig, ctx: EngineContext): Engine {
    const maxBytes = config.MAX_INPUT_MB * 1_048_576;
    /** In-process work still takes a slot of the shared limiter: it costs CPU and memory like a tool does. */
    const job = <T>(c: OpContext, fn: () => Promise<T>) => ctx.tools.limiter.run(fn, c.signal);
    const load = async (file: string) => {
      const bytes = await readFile(file);
      if (bytes.length > maxBytes)
        throw new EngineError('UNSUPPORTED_OPERATION', 'file too large for pdf-lib', { engine: 'pdf-lib' });
      try {
        return await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: false });
      } catch (err) {
        if ((err as Error).name === 'EncryptedPDFError') {
          throw new EngineError(
            'PASSWORD_REQUIRED',
            'This PDF is encrypted: send its password in the "password" field',
            { cause: err },
          );
        }
        throw new EngineError('INVALID_PDF', INVALID_PDF_MESSAGE, { cause: err });
      }
    };
    const save = async (doc: PDFDocument, file: string) => writeFile(file, await doc.save({ useObjectStreams: true }));
    const pick = async (src: PDFDocument, indices: number[], file: string) => {
      const out = await PDFDocument.create({ updateMetadata: false });
      for (const p of await out.copyPages(src, indices)) out.addPage(p);
      await save(out, file);
    };

    return {
      id: 'pdf-lib',
      pageBoxes: (input, _opts, c) =>
        job(c, async () => (await load(input)).getPages().map((p, i) => pageBoxOf(p, i + 1))),
      merge: (inputs, output, c) =>
        job(c, async () => {
          const out = await PDFDocument.create({ updateMetadata: false });
          for (const file of inputs) {
            const src = await load(file);
            for (const p of await out.copyPages(src, src.getPageIndices())) out.addPage(p);
          }
          await save(out, output);
        }),
      selectPages: (input, output, pages, c) =>
        job(c, async () =>
          pick(
            await load(input),
            pages.map((p) => p - 1),
            output,
          ),
        ),
      splitEvery: (input, outDir, every, c) =>
        job(c, async () => {
          const src = await load(input);
          const n = src.getPageCount();
          const files: string[] = [];
          for (let start = 0; start < n; start += every) {
            const idx = Array.from({ length: Math.min(every, n - start) }, (_, i) => start + i);
            const file = path.join(outDir, `part-${String(files.length + 1).padStart(4, '0')}.pdf`);
            await pick(src, idx, file);
            files.push(file);
          }
          return files;
        }),
      rotate: (input, output, opts, c) =>
        job(c, async () => {
          const doc = await load(input);
          const pages = doc.getPages();
          for (const n of opts.pages) {
            const p = pages[n - 1]!;
            p.setRotation(degrees(norm(p.getRotation().angle + opts.angle)));
          }
          await save(doc, output);
        }),
      stamp: (input, output, opts, c) =>
        job(c, async () => {
          // pdf-lib only appends to a page's content: a stamp beneath it is left to qpdf's --underlay.
          if (opts.under)
            throw new EngineError('UNSUPPORTED_OPERATION', 'pdf-lib draws over the content only', {
              engine: 'pdf-lib',
            });
          const doc = await load(input);
          const stampDoc = await PDFDocument.load(await readFile(opts.stamp));
          const stampPages = [...new Set(opts.map.map((m) => m.stampPage))];
          const embedded = await doc.embedPages(stampPages.map((n) => stampDoc.getPage(n - 1)));
          const byNumber = new Map(stampPages.map((n, i) => [n, embedded[i]!]));
          const pages = doc.getPages();
          for (const m of opts.map) {
            const page = pages[m.page - 1]!;
            const place = uprightPlacement(pageBoxOf(page, m.page));
            page.drawPage(byNumber.get(m.stampPage)!, { x: place.x, y: place.y, rotate: degrees(place.rotate) });
          }
          await save(doc, output);
        }),
      writeOutline: (input, output, bookmarks, c) =>
        job(c, async () => {
          const doc = await load(input);
          setOutline(doc, bookmarks);
          await save(doc, output);
        }),
      readMetadata: (input, c) =>
        job(c, async (): Promise<PdfMetadata> => {
          const doc = await load(input);
          const s = (v: string | undefined) => (v === undefined || v === '' ? null : v);
          return {
            title: s(doc.getTitle()),
            author: s(doc.getAuthor()),
            subject: s(doc.getSubject()),
            keywords: s(doc.getKeywords()),
            creator: s(doc.getCreator()),
            producer: s(doc.getProducer()),
            creationDate: toIso(doc.getCreationDate()),
            modificationDate: toIso(doc.getModificationDate()),
            pdfVersion: null,
            pages: doc.getPageCount(),
            encrypted: doc.isEncrypted,
          };
        }),
      writeMetadata: (input, output, fields: MetadataUpdate, c) =>
        job(c, async () => {
          const doc = await load(input);
          const remove = (key: string) => infoDictOf(doc).delete(PDFName.of(key));
          const apply = <T>(v: T | null | undefined, set: (v: T) => void, key: string) => {
            if (v === undefined) return;
            if (v === null) remove(key);
            else set(v);
          };
          apply(fields.title, (v) => doc.setTitle(v), 'Title');
          apply(fields.author, (v) => doc.setAuthor(v), 'Author');
          apply(fields.subject, (v) => doc.setSubject(v), 'Subject');
          // setKeywords would join a list with spaces: keep the text exactly as given.
          apply(
            fields.keywords,
            (v) => infoDictOf(doc).set(PDFName.of('Keywords'), PDFHexString.fromText(v)),
            'Keywords',
          );
          apply(fields.creator, (v) => doc.setCreator(v), 'Creator');
          apply(fields.producer, (v) => doc.setProducer(v), 'Producer');
          apply(fields.creationDate, (v) => doc.setCreationDate(v), 'CreationDate');
          apply(fields.modificationDate, (v) => doc.setModificationDate(v), 'ModDate');
          syncXmp(doc, fields);
          await save(doc, output);
        }),
      resizePages: (input, output, opts, c) =>
        job(c, async () => {
          const doc = await load(input);
          const pages = doc.getPages();
          for (const r of opts.pages) resizePage(pages[r.page - 1]!, r);
          await save(doc, output);
        }),
      flatten: (input, output, c) =>
        job(c, async () => {
          const doc = await load(input);
          doc.getForm().flatten();
          await save(doc, output);
        }),
      embedFacturX: (input, output, opts, c) =>
        job(c, async () => {
          const doc = await load(input);
          const { xml, ...spec } = opts;
          await embedFacturX(doc, await readFile(xml), spec);
          await save(doc, output);
        }),
      // After qpdf, which writes no AFRelationship: each file added with its relationship (Unspecified when none is
      // given: PDF's default) and listed in /AF, as PDF/A-3 wants every attached file. A name already embedded is kept
      // beside the new one, which qpdf would replace.
      attachFiles: (input, output, files, c) =>
        job(c, async () => {
          const doc = await load(input);
          const now = new Date();
          for (const f of files) {
            await doc.attach(await readFile(f.path), f.name, {
              mimeType: f.mimeType,
              creationDate: now,
              modificationDate: now,
              afRelationship: AFRelationship[f.relationship ?? 'Unspecified'],
            });
          }
          await save(doc, output);
        }),
      declarePdfUa: (input, output, c) =>
        job(c, async () => {
          const doc = await load(input);
          declarePdfUa(doc);
          await save(doc, output);
        }),
      readFormFields: (input, c) => job(c, async () => readFormFields(await load(input))),
      fillForm: (input, output, opts, c) =>
        job(c, async () => {
          const doc = await load(input);
          await fillForm(doc, opts.values, opts.flatten);
          await save(doc, output);
        }),
    };
  },
});
