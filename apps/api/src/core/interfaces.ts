import type { ToolAccount } from './tool-user';

/**
 * The operations of the processing core, one small interface each (files in, files out). An engine module
 * implements the ones it can; the chain for an operation is built from the engines that implement it, in the
 * configured order. Paths are files inside the request's workspace; pages are 1-based.
 */

export interface OpContext {
  /** Cancelled when the client goes away: tools are killed, queued work leaves the queue. */
  signal?: AbortSignal;
  /** A scratch directory of the request (inside its workspace) for intermediate files. */
  scratch: string;
  /**
   * The account the request's workspace is leased to (core/tool-accounts.ts), leased when its first tool gets a
   * processing slot: its tools run as it, and no other request's can. Unset: the runner's base account, which can
   * reach no workspace (health checks, tests).
   */
  runAs?: ToolAccount;
}

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

/** A file to embed in a PDF as an attachment, under the name a reader shows. */
export interface Attachment {
  path: string;
  name: string;
  mimeType?: string;
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

export type QrErrorCorrection = 'L' | 'M' | 'Q' | 'H';
export interface QrRenderOptions {
  format: 'png' | 'svg';
  size: number;
  margin: number;
  errorCorrection: QrErrorCorrection;
  /** #rrggbbaa */
  color: string;
  background: string;
}
export interface QrCode {
  data: Buffer;
  mimeType: 'image/png' | 'image/svg+xml';
  version: number;
}
export interface QrEncoder {
  /** In-process (a worker thread or the main one), no queue, no subprocess. INVALID_INPUT over capacity. */
  encodeQr(payload: string, opts: QrRenderOptions): Promise<QrCode>;
}

export interface DecodedSymbol {
  type: string;
  data: string;
}
export interface QrDecoder {
  decodeQr(image: string, ctx: OpContext): Promise<DecodedSymbol[]>;
}

// ---------------------------------------------------------------- conversion to PDF

export type OfficeKind = 'document' | 'spreadsheet' | 'presentation';
export interface OfficeConvertOptions {
  /** Which office module imports the file (writer, calc, impress): from the detected format. */
  kind: OfficeKind;
  /** Pages in landscape (every page style of a text or spreadsheet, every slide of a presentation). */
  landscape?: boolean;
  /** Spreadsheets: each sheet scaled to fit one page wide. */
  fitToPage?: boolean;
  /** Password of a protected office document. */
  password?: string;
  /** The caller's plan's deadline for one document, under the engine's own (past it: the document's fault). */
  timeoutMs?: number;
  /**
   * LibreOffice's PDF export filter options by their own names (Quality, SinglePageSheets, ExportNotes…), as
   * `soffice --convert-to 'pdf:writer_pdf_Export:{...}'` takes them; checked by the caller.
   */
  exportOptions?: Record<string, boolean | number | string>;
}
export interface OfficeConverter {
  /** An office document (doc, docx, odt, rtf, txt, xls, xlsx, ods, csv, ppt, pptx, odp…) to PDF. */
  convertOffice(input: string, output: string, opts: OfficeConvertOptions, ctx: OpContext): Promise<void>;
}

/** What a page must pass before it is captured, and how its background is drawn (Gotenberg's page fields). */
export interface PageChecks {
  /** A JavaScript expression polled until truthy before the capture, within the render's deadline. */
  waitForExpression?: string;
  /** Wait until the page sets `window.status` to this value, within the render's deadline. */
  waitWindowStatus?: string;
  /** Fail when the page throws an uncaught exception. */
  failOnConsoleExceptions?: boolean;
  /**
   * Statuses of the main document that fail the render; 499 stands for 400-499 and 599 for 500-599 (Gotenberg's
   * convention). Absent: every 4xx and 5xx.
   */
  failOnHttpStatusCodes?: number[];
  /** Transparent where the page paints no background. */
  omitBackground?: boolean;
  /** Cookies set before the page loads: sent only where the URL rules let the page's requests go anyway. */
  cookies?: PageCookie[];
  /** Headers added to every request of the page (never Host, Cookie or connection-level ones). */
  extraHttpHeaders?: Record<string, string>;
  /** Headers added only to the requests whose URL matches their scope (Gotenberg's `;scope=`). */
  scopedHttpHeaders?: ScopedHeader[];
  /** The page's User-Agent: navigator.userAgent and every request's header. */
  userAgent?: string;
  /** A CSS selector waited for (until an element matching it is visible) before the capture, within the deadline. */
  waitForSelector?: string;
  /** After `load`, wait until the network is idle (no request for 500 ms), within the deadline. */
  waitForNetworkIdle?: boolean;
  /** After `load`, wait until the network is almost idle (at most two requests for 500 ms), within the deadline. */
  waitForNetworkAlmostIdle?: boolean;
  /** Statuses of the page's other resources (images, scripts, styles, fetches) that fail the render; 499/599 as above. */
  failOnResourceHttpStatusCodes?: number[];
  /** Hosts (with their subdomains) whose resources failOnResourceHttpStatusCodes leaves out. */
  ignoreResourceHttpStatusDomains?: string[];
  /** Fail when a resource of the page could not be loaded at all (unreachable, refused by the URL rules, aborted). */
  failOnResourceLoadingFailed?: boolean;
  /** CSS media features the page is laid out with (`prefers-color-scheme: dark`, `prefers-reduced-motion`…). */
  emulatedMediaFeatures?: Array<{ name: string; value: string }>;
}

/** A header sent only with the requests whose URL its `scope` (an RE2 regular expression) matches anywhere. */
export interface ScopedHeader {
  name: string;
  value: string;
  scope: string;
}

export interface PageCookie {
  name: string;
  value: string;
  domain: string;
  path?: string;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

/** How a page is printed; lengths in inches (as Chromium's printToPDF takes them). */
export interface PrintOptions extends PageChecks {
  paperWidth: number;
  paperHeight: number;
  margins: { top: number; right: number; bottom: number; left: number };
  landscape: boolean;
  printBackground: boolean;
  /** 0.1-2 */
  scale: number;
  /** The page's own CSS `@page { size }` wins over paperWidth/paperHeight (default false). */
  preferCssPageSize?: boolean;
  /** An outline (bookmarks) built from the page's headings (default false). */
  outline?: boolean;
  /** The CSS media type the page is printed with (default print). */
  emulatedMediaType?: 'print' | 'screen';
  /** Milliseconds to wait once the page has loaded, before printing (for late scripts); within the render's deadline. */
  waitDelayMs?: number;
  /** Chromium's header and footer templates (HTML drawn in each page's top and bottom margins). */
  headerTemplate?: string;
  footerTemplate?: string;
  /** The whole page on one sheet: the paper as tall as the content (as wide too, in landscape) plus the margins. */
  singlePage?: boolean;
}
/** What the caller's plan allows a render (plans/processing): scripts, and a deadline under the engine's own. */
export interface RenderLimits {
  /** Run the page's JavaScript (default true). */
  javascript?: boolean;
  timeoutMs?: number;
}
export interface HtmlRenderer {
  /**
   * An HTML file of the workspace to PDF. It may load files under `baseDir` (its assets) and data: URLs; nothing
   * from the network and no other local file.
   */
  renderHtml(
    input: string,
    output: string,
    opts: PrintOptions & RenderLimits & { baseDir: string },
    ctx: OpContext,
  ): Promise<void>;
}
export interface UrlRenderer {
  /**
   * A web page to PDF. Every request the page makes (redirects, subresources) is checked: private, loopback,
   * link-local and otherwise non-public addresses are refused unless `allowPrivate`.
   */
  renderUrl(
    url: string,
    output: string,
    opts: PrintOptions & RenderLimits & { allowPrivate: boolean },
    ctx: OpContext,
  ): Promise<void>;
}

/** Bounds of a capture, in pixels: Chromium draws nothing larger than 16384 in either direction. */
export const SCREEN_LIMITS = { minSide: 16, maxWidth: 4096, maxHeight: 16384, maxScale: 4 } as const;

/** How a loaded page is captured as an image; sizes in CSS pixels (one device pixel each). */
export interface ScreenshotOptions extends PageChecks {
  format: 'png' | 'jpeg' | 'webp';
  /** jpeg and webp, 0-100 (png is lossless). */
  quality?: number;
  /** The screen the page is laid out on. */
  width: number;
  height: number;
  /** true: the screen only (width × height); false: the whole page, at least the screen. */
  clip: boolean;
  /** A CSS selector: the capture is the box of the first element matching it (before `clip`). */
  selector?: string;
  /** Device pixels per CSS pixel (window.devicePixelRatio): 2 makes an image twice as wide and tall. Default 1. */
  deviceScaleFactor?: number;
  /** Faster encoding, larger files. */
  optimizeForSpeed?: boolean;
  /** The CSS media type the page is laid out with (default screen). */
  emulatedMediaType?: 'print' | 'screen';
  /** Milliseconds to wait once the page has loaded, before the capture; within the render's deadline. */
  waitDelayMs?: number;
}
export interface HtmlScreenshotter {
  /** An HTML file of the workspace to an image, under the same offline rules as renderHtml. */
  screenshotHtml(
    input: string,
    output: string,
    opts: ScreenshotOptions & RenderLimits & { baseDir: string },
    ctx: OpContext,
  ): Promise<void>;
}
export interface UrlScreenshotter {
  /** A web page to an image, every request checked as renderUrl checks them. */
  screenshotUrl(
    url: string,
    output: string,
    opts: ScreenshotOptions & RenderLimits & { allowPrivate: boolean },
    ctx: OpContext,
  ): Promise<void>;
}

export interface ImagesToPdfOptions {
  /** 'fit': each page the size of its image. */
  pageSize: 'A4' | 'letter' | 'fit';
  orientation: 'portrait' | 'landscape' | 'auto';
  /** Margin in PDF points (1/72 in). */
  margin: number;
}
export interface ImageConverter {
  /** One page per image (every frame of a multi-page TIFF or an animated GIF's first frame); answers the page count. */
  imagesToPdf(inputs: string[], output: string, opts: ImagesToPdfOptions, ctx: OpContext): Promise<{ pages: number }>;
}

// ---------------------------------------------------------------- OCR

export interface OcrWord {
  text: string;
  /** 0-100, as tesseract reports it. */
  confidence: number;
  /** Pixels of the recognised image, origin top-left. */
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface OcrLine {
  text: string;
  confidence: number;
  x: number;
  y: number;
  width: number;
  height: number;
  words: OcrWord[];
}
export interface OcrPage {
  text: string;
  /** Mean word confidence 0-100 (0 when no word was found). */
  confidence: number;
  width: number;
  height: number;
  lines: OcrLine[];
}
export interface OcrOptions {
  /** Tesseract language codes (eng, fra…), already validated. */
  languages: string[];
  /** Page segmentation mode 0-13. */
  psm?: number;
  /** Only these characters are recognised. */
  whitelist?: string;
  /** Resolution of the image when it does not say (tesseract guesses otherwise). */
  dpi?: number;
}
export interface OcrRecognizer {
  /**
   * One image (PNG or TIFF, one page) to text with word boxes. `pdf`: also write, from the same recognition pass, a
   * one-page PDF of the image with the text invisible over it, or (`textOnly`) of the invisible text alone, sized as
   * the image at `dpi`, to lay over an existing page. Unknown languages: INVALID_INPUT.
   */
  ocr(
    image: string,
    opts: OcrOptions & { pdf?: { output: string; textOnly?: boolean } },
    ctx: OpContext,
  ): Promise<OcrPage>;
}
export interface OcrOrientation {
  /** Degrees clockwise the image must be turned to be upright. */
  rotate: 0 | 90 | 180 | 270;
  confidence: number;
}
export interface OrientationDetector {
  /** How far a page image is turned from upright (tesseract's orientation and script detection). */
  detectOrientation(image: string, opts: { dpi?: number }, ctx: OpContext): Promise<OcrOrientation>;
}
export interface OcrLanguageLister {
  /** The installed recognition languages (eng, fra…), sorted, without osd. */
  ocrLanguages(ctx: OpContext): Promise<string[]>;
}

/** Every operation, by the name of its one method. */
export interface Operations {
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
  encodeQr: QrEncoder;
  decodeQr: QrDecoder;
  convertOffice: OfficeConverter;
  renderHtml: HtmlRenderer;
  renderUrl: UrlRenderer;
  screenshotHtml: HtmlScreenshotter;
  screenshotUrl: UrlScreenshotter;
  imagesToPdf: ImageConverter;
  ocr: OcrRecognizer;
  ocrLanguages: OcrLanguageLister;
  detectOrientation: OrientationDetector;
}
export type OperationName = keyof Operations;
/** The function of operation K (e.g. `Merger['merge']`). */
export type OperationFn<K extends OperationName> = Operations[K] extends Record<K, infer F> ? F : never;

/** An engine instance: its id plus whichever operations it implements. */
/** What a long-lived engine reports about its processes, for the system monitor. */
export interface EngineStatus {
  /** 'degraded': it works but lost a process recently or has one gone; 'error': it cannot work now. */
  state: 'ok' | 'degraded' | 'error';
  details: Record<string, number | string | boolean | null>;
  /** Why it is not ok. */
  problem?: string;
}

export type Engine = {
  readonly id: string;
  /** Stop what the engine keeps running (pooled processes, a browser). */ close?(): Promise<void>;
  /** Live state of its pooled processes (engines that keep some). */
  status?(): EngineStatus;
  /**
   * Start what it keeps running ahead of the first job (engines that keep processes); settles when they are up or
   * failed to start. A job arriving meanwhile waits for the process being started rather than starting another.
   */
  warm?(): Promise<void>;
} & Partial<{
  [K in OperationName]: OperationFn<K>;
}>;
