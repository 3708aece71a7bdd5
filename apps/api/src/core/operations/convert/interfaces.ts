import type { OpContext } from '../../interfaces';

/**
 * The engine interfaces of the conversions (to-pdf.ts, to-image.ts: office documents, HTML and web pages to PDF or
 * images, images to PDF), one small interface each as core/interfaces.ts describes them.
 */

/** The LibreOffice module a file opens in; `pdf`: a PDF, laid out again as a drawing by Draw's PDF import. */
export type OfficeKind = 'document' | 'spreadsheet' | 'presentation' | 'pdf';
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

/** This area's operations by the name of their one method (core/interfaces.ts joins the areas into Operations). */
export interface ConvertOperations {
  convertOffice: OfficeConverter;
  renderHtml: HtmlRenderer;
  renderUrl: UrlRenderer;
  screenshotHtml: HtmlScreenshotter;
  screenshotUrl: UrlScreenshotter;
  imagesToPdf: ImageConverter;
}
