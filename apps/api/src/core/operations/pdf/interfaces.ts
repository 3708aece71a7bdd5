import type { OpContext } from '../../interfaces';

/**
 * The engine interfaces of the PDF operations (this folder's, and those of extraction and OCR, which read PDFs
 * through them), one small interface each as core/interfaces.ts describes them.
 */

export interface PageCount {
  /** The real number of pages (a page tree walk when the declared /Count is implausible). */
  pages: number;
  encrypted: boolean;
  /** The page tree's /Count when it disagreed with the real count (the file should be normalised before use). */
  declaredPages?: number;
  /** Counting stopped early: the document has at least this many pages. */
  atLeast?: boolean;
}
export interface PageCounter {
  /**
   * `stopAfter`: the caller only needs to know whether there are more pages than this (the plan's limit); an engine
   * may stop counting once it has found more, and answer with `atLeast`.
   */
  countPages(input: string, opts: { password?: string; stopAfter?: number }, ctx: OpContext): Promise<PageCount>;
}

export interface PageBox {
  /** 1-based page number. */
  page: number;
  /** The visible box (CropBox, else MediaBox) in PDF points, in the page's own coordinates. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** /Rotate, normalised to 0, 90, 180 or 270. */
  rotate: number;
}
export interface PageInspector {
  /** `pages`: the page count when already known (saves a read). */
  pageBoxes(input: string, opts: { pages?: number }, ctx: OpContext): Promise<PageBox[]>;
}

export interface Merger {
  merge(inputs: string[], output: string, ctx: OpContext): Promise<void>;
}

export interface PageSelector {
  /** One output holding `pages` in that order (repeats allowed): extract, delete (the complement), reorder, ranges. */
  selectPages(input: string, output: string, pages: number[], ctx: OpContext): Promise<void>;
}

export interface Splitter {
  /** Chunks of `every` pages, in order, written into `outDir`; returns their paths. */
  splitEvery(input: string, outDir: string, every: number, ctx: OpContext): Promise<string[]>;
}

export interface Rotator {
  rotate(
    input: string,
    output: string,
    opts: { angle: 90 | 180 | 270; pages: number[] },
    ctx: OpContext,
  ): Promise<void>;
}

/** Overlay (or underlay) pages of a stamp PDF onto pages of the input: watermarks and page numbers. */
export interface Stamper {
  stamp(
    input: string,
    output: string,
    opts: { stamp: string; map: Array<{ page: number; stampPage: number }>; under?: boolean },
    ctx: OpContext,
  ): Promise<void>;
}

/** An entry of a PDF's outline (its bookmarks): the page it opens, numbered from 1, and its own entries. */
export interface Bookmark {
  title: string;
  page: number;
  children?: Bookmark[];
}
export interface OutlineReader {
  /** The outline as a tree; an entry without a page destination has page 0. No outline: []. */
  readOutline(input: string, ctx: OpContext): Promise<Bookmark[]>;
}
export interface OutlineWriter {
  /** Replace the outline with `bookmarks` (pages already checked against the document). */
  writeOutline(input: string, output: string, bookmarks: Bookmark[], ctx: OpContext): Promise<void>;
}

/** How an attached file relates to the document (PDF 2.0 and PDF/A-3's /AFRelationship). */
export const AF_RELATIONSHIPS = ['Source', 'Data', 'Alternative', 'Supplement', 'Unspecified'] as const;
export type AfRelationship = (typeof AF_RELATIONSHIPS)[number];

/** A file to embed in a PDF as an attachment, under the name a reader shows. */
export interface Attachment {
  path: string;
  name: string;
  mimeType?: string;
  /** Written on the file's entry, which is then listed in the catalog's /AF. */
  relationship?: AfRelationship;
}
export interface Attacher {
  /** Add the files to the document's embedded files (a name already there is replaced). */
  attachFiles(input: string, output: string, files: Attachment[], ctx: OpContext): Promise<void>;
}

export interface PdfPermissions {
  print: boolean;
  copy: boolean;
  modify: boolean;
  annotate: boolean;
}
export interface Encryptor {
  encrypt(
    input: string,
    output: string,
    opts: { userPassword: string; ownerPassword: string; permissions: PdfPermissions },
    ctx: OpContext,
  ): Promise<void>;
}
export interface Decryptor {
  /** Remove encryption; `password` is the user or owner password (empty for owner-only files). */
  decrypt(input: string, output: string, opts: { password?: string }, ctx: OpContext): Promise<void>;
}

export interface PdfMetadata {
  title: string | null;
  author: string | null;
  subject: string | null;
  keywords: string | null;
  creator: string | null;
  producer: string | null;
  creationDate: string | null;
  modificationDate: string | null;
  pdfVersion: string | null;
  pages: number;
  encrypted: boolean;
}
export interface MetadataReader {
  readMetadata(input: string, ctx: OpContext): Promise<PdfMetadata>;
}
export interface MetadataUpdate {
  title?: string | null;
  author?: string | null;
  subject?: string | null;
  keywords?: string | null;
  creator?: string | null;
  producer?: string | null;
  creationDate?: Date | null;
  modificationDate?: Date | null;
  /** XMP only (dc:rights), as ExifTool writes a PDF's copyright notice: the Info dictionary has no such entry. */
  copyright?: string | null;
  /** XMP only (xmpRights:Marked): true, a rights-managed document; false, public domain. */
  marked?: boolean | null;
  /** XMP only (pdf:Trapped), as Gotenberg writes it: ExifTool's Info /Trapped breaks stricter PDF readers. */
  trapped?: 'True' | 'False' | 'Unknown' | null;
}
export interface MetadataWriter {
  writeMetadata(input: string, output: string, fields: MetadataUpdate, ctx: OpContext): Promise<void>;
}

export interface FontInfo {
  name: string;
  type: string;
  encoding: string;
  embedded: boolean;
  subset: boolean;
  unicode: boolean;
}
export interface ImageInfo {
  page: number;
  width: number;
  height: number;
  colorSpace: string;
  bitsPerComponent: number;
  encoding: string;
  xPpi: number;
  yPpi: number;
  bytes: number;
}
export interface PdfAnalysis {
  pages: number;
  pdfVersion: string | null;
  encrypted: boolean;
  linearized: boolean;
  tagged: boolean;
  form: 'none' | 'AcroForm' | 'XFA';
  javascript: boolean;
  pageSizes: Array<{ page: number; width: number; height: number; rotate: number; label: string | null }>;
  fonts: FontInfo[];
  images: ImageInfo[];
  textPages: number[];
  fileSize: number;
}
export interface Analyzer {
  /** `text: false` skips the per-page text check (textPages comes back empty). */
  analyze(input: string, opts: { text: boolean }, ctx: OpContext): Promise<PdfAnalysis>;
}

export interface SizeBreakdown {
  total: number;
  images: number;
  fonts: number;
  content: number;
  other: number;
  objects: number;
  imageCount: number;
  fontCount: number;
}
export interface StructureInspector {
  sizeBreakdown(input: string, ctx: OpContext): Promise<SizeBreakdown>;
}

export interface TextWord {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}
export interface PageText {
  page: number;
  text: string;
  width?: number;
  height?: number;
  words?: TextWord[];
}
export interface TextExtractor {
  /** `pages: 'all'`: the whole document, without knowing its page count first. */
  extractText(
    input: string,
    opts: { pages: number[] | 'all'; layout: boolean; words: boolean },
    ctx: OpContext,
  ): Promise<PageText[]>;
}

/** A line of text as laid out on the page: its box in points from the page's top-left, its font. */
export interface LayoutText {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Font size in points. */
  size: number;
  font: string;
  bold: boolean;
  italic: boolean;
}
/** An image drawn on the page, its box in points from the page's top-left. */
export interface LayoutImage {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface PageLayout {
  page: number;
  width: number;
  height: number;
  texts: LayoutText[];
  images: LayoutImage[];
}
export interface LayoutReader {
  /** The text lines (with their fonts) and images of `pages`; `workDir` is for the tool's own files. */
  readLayout(input: string, workDir: string, opts: { pages: number[] }, ctx: OpContext): Promise<PageLayout[]>;
}

export type CompressionLevel = 'low' | 'medium' | 'high';
export interface Compressor {
  compress(input: string, output: string, opts: { level: CompressionLevel }, ctx: OpContext): Promise<void>;
}

export interface RenderedPage {
  page: number;
  path: string;
}
export interface Renderer {
  render(
    input: string,
    outDir: string,
    /** pgm: 8-bit gray, uncompressed (for OCR: nothing to compress or decompress, nothing for tesseract to convert). */
    opts: { format: 'png' | 'jpg' | 'pgm'; dpi: number; pages: number[]; quality?: number },
    ctx: OpContext,
  ): Promise<RenderedPage[]>;
}

export interface ExtractedImage {
  page: number;
  path: string;
}
export interface ImageExtractor {
  extractImages(input: string, outDir: string, opts: { pages: number[] }, ctx: OpContext): Promise<ExtractedImage[]>;
}

/** A rectangle in PDF points, in a page's own (unrotated) coordinates. */
export interface PdfRect {
  x: number;
  y: number;
  width: number;
  height: number;
}
/**
 * A page's new geometry: `crop` sets its MediaBox and CropBox to the rectangle (its other boxes are kept within it);
 * `fit` scales its content, annotations and boxes uniformly onto a sheet of that size (unrotated coordinates), centred.
 */
export type PageResize = { page: number; crop: PdfRect } | { page: number; fit: { width: number; height: number } };
export interface PageResizer {
  resizePages(input: string, output: string, opts: { pages: PageResize[] }, ctx: OpContext): Promise<void>;
}

export interface Flattener {
  flatten(input: string, output: string, ctx: OpContext): Promise<void>;
}

/** An AcroForm field as a form reader lists it (the shape of contracts' ZFormField). */
export interface FormFieldInfo {
  /** Full name, parents joined with dots: the key to fill it by. */
  name: string;
  type: 'text' | 'checkbox' | 'radio' | 'choice' | 'signature' | 'button';
  /** Text; the export value of a checked checkbox or a radio group; the choice(s); null when empty or off. */
  value: string | string[] | null;
  /** Export values of a checkbox or radio group, choices of a choice field. */
  options: string[];
  required: boolean;
  readOnly: boolean;
  multiline?: boolean;
  maxLength?: number;
  multiSelect?: boolean;
  editable?: boolean;
  /** Page (1-based) and rectangle of its first widget. */
  page: number | null;
  rect: PdfRect | null;
  widgets: Array<{ page: number | null; rect: PdfRect }>;
}
export type FormValue = string | boolean | number | string[] | null;
export interface FormReader {
  /** The form's fields; a PDF with none: NO_FORM_FIELDS. */
  readFormFields(input: string, ctx: OpContext): Promise<FormFieldInfo[]>;
}
export interface FormFiller {
  /**
   * Set the fields of `values` (by full name) with appearance streams drawn, optionally flattened. A name the form
   * lacks, or a value its field cannot take: INVALID_INPUT naming it; a PDF with no fields: NO_FORM_FIELDS.
   */
  fillForm(
    input: string,
    output: string,
    opts: { values: Record<string, FormValue>; flatten: boolean },
    ctx: OpContext,
  ): Promise<void>;
}
export interface Repairer {
  repair(input: string, output: string, ctx: OpContext): Promise<void>;
}
export type PdfaPart = 1 | 2 | 3;
export interface PdfaConverter {
  /** PDF/A-1b (PDF 1.4, no transparency), 2b (the default everywhere) or 3b (2b that may embed any file). */
  toPdfa(input: string, output: string, opts: { part: PdfaPart; conformance: 'b' }, ctx: OpContext): Promise<void>;
}

/** Factur-X / ZUGFeRD: the invoice's profile and kind, as its XMP declares them. */
export interface FacturXSpec {
  conformanceLevel: 'MINIMUM' | 'BASIC WL' | 'BASIC' | 'EN 16931' | 'EXTENDED' | 'XRECHNUNG';
  documentType: 'INVOICE' | 'ORDER' | 'ORDER_RESPONSE' | 'ORDER_CHANGE';
  version: string;
}
export interface FacturXEmbedder {
  /**
   * Make a PDF/A-3 document a Factur-X invoice: the XML at `opts.xml` embedded as factur-x.xml (AFRelationship
   * Alternative, listed in the catalog's /AF), and the fx properties with their extension schema in the XMP.
   */
  embedFacturX(input: string, output: string, opts: FacturXSpec & { xml: string }, ctx: OpContext): Promise<void>;
}
export interface PdfUaDeclarer {
  /**
   * Declare a tagged document PDF/UA-1 (pdfuaid:part in its XMP, /MarkInfo, the title shown): an untagged one is
   * refused (INVALID_INPUT), its structure being what the declaration promises.
   */
  declarePdfUa(input: string, output: string, ctx: OpContext): Promise<void>;
}

/** This area's operations by the name of their one method (core/interfaces.ts joins the areas into Operations). */
export interface PdfOperations {
  countPages: PageCounter;
  pageBoxes: PageInspector;
  merge: Merger;
  selectPages: PageSelector;
  splitEvery: Splitter;
  rotate: Rotator;
  stamp: Stamper;
  readOutline: OutlineReader;
  writeOutline: OutlineWriter;
  attachFiles: Attacher;
  encrypt: Encryptor;
  decrypt: Decryptor;
  readMetadata: MetadataReader;
  writeMetadata: MetadataWriter;
  analyze: Analyzer;
  sizeBreakdown: StructureInspector;
  extractText: TextExtractor;
  readLayout: LayoutReader;
  compress: Compressor;
  render: Renderer;
  extractImages: ImageExtractor;
  resizePages: PageResizer;
  flatten: Flattener;
  readFormFields: FormReader;
  fillForm: FormFiller;
  repair: Repairer;
  toPdfa: PdfaConverter;
  embedFacturX: FacturXEmbedder;
  declarePdfUa: PdfUaDeclarer;
}
