/**
 * What the API reference says of each Gotenberg form field (or group of fields), once: the routes list the ones they
 * take by name, so that a field's description cannot drift between routes.
 */
export const FIELD_DOCS = {
  pdfs: '`files` (PDFs, in name order)',
  split: '`splitMode` (intervals, pages), `splitSpan`, `splitUnify`',
  marks:
    '`watermark*`/`stamp*` (as on /forms/pdfengines/watermark and /stamp, several per request) with their `watermark`/`stamp` files',
  rotate: '`rotateAngle` (90, 180 or 270, clockwise), `rotatePages` (empty: all)',
  flatten: '`flatten`',
  optimize:
    "`optimizeImages`, `imageQuality` (1 to 100, default 80: up to 50 DocFlow's strong compression, images at 72 dpi; above, its medium one, 150 dpi)",
  pdfa: '`pdfa` (PDF/A-1b, 2b or 3b)',
  pdfua: '`pdfua` (PDF/UA-1, declared on tagged PDFs)',
  metadata:
    '`metadata` (JSON: Author, Copyright, CreationDate, Creator, Keywords, Marked, ModDate, PDFVersion, Producer, Subject, Title, Trapped)',
  facturx:
    '`facturxXml` (the CII invoice XML, a file; embedded as factur-x.xml), `facturxConformanceLevel` (MINIMUM, BASIC WL, BASIC, EN 16931, EXTENDED, XRECHNUNG), `facturxDocumentType` (INVOICE, ORDER, ORDER_RESPONSE, ORDER_CHANGE), `facturxVersion` (1.0)',
  embeds:
    '`embeds` (files attached to each PDF, under their names; PDF/A only as PDF/A-3), `embedsMetadata` (JSON: `mimeType` by file name)',
  encrypt:
    '`userPassword`, `ownerPassword`, `allowPrinting`, `allowCopying`, `allowModifying`, `allowAnnotating` (true by default)',
} as const;

export type FieldDoc = keyof typeof FIELD_DOCS;

/** The finishing fields of the routes producing or merging PDFs, in Gotenberg's order of work. */
export const FINISHING_DOCS: FieldDoc[] = [
  'split',
  'marks',
  'rotate',
  'flatten',
  'optimize',
  'pdfa',
  'pdfua',
  'metadata',
  'facturx',
  'embeds',
  'encrypt',
];

/** A route's field list: its own fields (free text) followed by the shared ones it takes. */
export const fieldDocs = (own: string[], shared: FieldDoc[] = []): string =>
  [...own, ...shared.map((key) => FIELD_DOCS[key])].join(', ');
