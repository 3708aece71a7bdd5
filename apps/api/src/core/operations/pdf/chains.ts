import type { ChainSpecs } from '../../chain';

/**
 * The engine chains that work on PDFs (this folder's operations, and extraction and OCR, which read PDFs through
 * them): the variable that orders each, its engines by default, and what it does as configuration errors name it.
 * config/engines.ts gathers every area's table; there is no other list of chains.
 *
 * Defaults were chosen by measurement on 2 cores (see scripts/bench/pdf.mjs): merge 2×200 pages by pdf-scan's copy
 * 9-12 ms in process vs pdfunite 37-41 ms vs qpdf 62-80 ms; split into 400 files qpdf 190 ms vs pdfseparate 2.7 s;
 * stamping 400 pages qpdf --overlay 190 ms vs pdf-lib 250-390 ms; Ghostscript compresses image-heavy files far more than qpdf can (−94 % vs −0.1 %). Page counts
 * and boxes are read in-process by pdf-scan: 200 pages 0.8-1.5 ms vs 9-13 ms for a spawned qpdf --show-npages and
 * 14-19 ms for pdfinfo -box; 2000 pages 6.5-12 ms vs 13-30 ms and 43-70 ms. It declines (UNSUPPORTED_OPERATION) what
 * it does not handle (encrypted, damaged or unusual files), and the tools after it take those.
 */
export const pdfChains = {
  countPages: {
    env: 'PDF_PAGE_COUNT_ENGINES',
    defaults: ['pdf-scan', 'qpdf', 'poppler'],
    what: 'page counting and encryption check',
  },
  pageBoxes: {
    env: 'PDF_PAGE_BOXES_ENGINES',
    defaults: ['pdf-scan', 'poppler', 'pdf-lib'],
    what: 'page sizes and rotation',
  },
  merge: { env: 'PDF_MERGE_ENGINES', defaults: ['pdf-scan', 'poppler', 'qpdf', 'pdf-lib'], what: 'merge' },
  selectPages: {
    env: 'PDF_SELECT_PAGES_ENGINES',
    defaults: ['qpdf', 'pdf-lib'],
    what: 'split by ranges, extract, delete, reorder',
  },
  splitEvery: { env: 'PDF_SPLIT_ENGINES', defaults: ['qpdf', 'pdf-lib'], what: 'split every N pages' },
  rotate: { env: 'PDF_ROTATE_ENGINES', defaults: ['qpdf', 'pdf-lib'], what: 'rotate' },
  stamp: { env: 'PDF_STAMP_ENGINES', defaults: ['qpdf', 'pdf-lib'], what: 'watermarks and page numbers' },
  readOutline: { env: 'PDF_OUTLINE_READ_ENGINES', defaults: ['qpdf'], what: 'bookmarks (outline) reading' },
  writeOutline: { env: 'PDF_OUTLINE_WRITE_ENGINES', defaults: ['pdf-lib'], what: 'bookmarks (outline) writing' },
  attachFiles: { env: 'PDF_ATTACH_ENGINES', defaults: ['qpdf', 'pdf-lib'], what: 'file attachments' },
  encrypt: { env: 'PDF_ENCRYPT_ENGINES', defaults: ['qpdf'], what: 'protect' },
  decrypt: { env: 'PDF_DECRYPT_ENGINES', defaults: ['qpdf'], what: 'unlock' },
  readMetadata: { env: 'PDF_METADATA_READ_ENGINES', defaults: ['poppler', 'pdf-lib'], what: 'metadata' },
  writeMetadata: { env: 'PDF_METADATA_WRITE_ENGINES', defaults: ['pdf-lib'], what: 'metadata update' },
  analyze: { env: 'PDF_ANALYZE_ENGINES', defaults: ['poppler'], what: 'analyze' },
  sizeBreakdown: { env: 'PDF_SIZE_BREAKDOWN_ENGINES', defaults: ['qpdf'], what: 'size breakdown' },
  extractText: { env: 'PDF_TEXT_ENGINES', defaults: ['poppler'], what: 'text extraction' },
  readLayout: {
    env: 'PDF_LAYOUT_ENGINES',
    defaults: ['poppler'],
    what: 'text layout with fonts (structured extraction)',
  },
  compress: { env: 'PDF_COMPRESS_ENGINES', defaults: ['ghostscript', 'qpdf'], what: 'compression' },
  render: { env: 'PDF_RENDER_ENGINES', defaults: ['pdf-scan', 'poppler', 'ghostscript'], what: 'pages to images' },
  extractImages: { env: 'PDF_IMAGES_ENGINES', defaults: ['poppler'], what: 'image extraction' },
  resizePages: { env: 'PDF_RESIZE_ENGINES', defaults: ['pdf-lib'], what: 'crop and scale pages' },
  flatten: { env: 'PDF_FLATTEN_ENGINES', defaults: ['qpdf', 'pdf-lib'], what: 'flatten' },
  readFormFields: { env: 'PDF_FORM_READ_ENGINES', defaults: ['pdf-lib'], what: 'form fields listing' },
  fillForm: { env: 'PDF_FORM_FILL_ENGINES', defaults: ['pdf-lib'], what: 'form filling' },
  repair: { env: 'PDF_REPAIR_ENGINES', defaults: ['qpdf', 'ghostscript'], what: 'repair' },
  toPdfa: { env: 'PDF_PDFA_ENGINES', defaults: ['ghostscript'], what: 'PDF/A' },
  embedFacturX: { env: 'PDF_FACTURX_ENGINES', defaults: ['pdf-lib'], what: 'Factur-X / ZUGFeRD invoices' },
  declarePdfUa: { env: 'PDF_PDFUA_ENGINES', defaults: ['pdf-lib'], what: 'PDF/UA declaration' },
} satisfies ChainSpecs;
