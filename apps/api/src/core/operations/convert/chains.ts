import type { ChainSpecs } from '../../chain';

/** The engine chains of the conversions (to-pdf.ts, to-image.ts): variable, default engines, and what each does. */
export const convertChains = {
  convertOffice: { env: 'CONVERT_OFFICE_ENGINES', defaults: ['libreoffice'], what: 'office documents to PDF' },
  renderHtml: { env: 'CONVERT_HTML_ENGINES', defaults: ['chromium'], what: 'HTML, Markdown, text and EPUB to PDF' },
  renderUrl: { env: 'CONVERT_URL_ENGINES', defaults: ['chromium'], what: 'web pages to PDF' },
  screenshotHtml: { env: 'SCREENSHOT_HTML_ENGINES', defaults: ['chromium'], what: 'HTML and Markdown to images' },
  screenshotUrl: { env: 'SCREENSHOT_URL_ENGINES', defaults: ['chromium'], what: 'web pages to images' },
  imagesToPdf: { env: 'CONVERT_IMAGE_ENGINES', defaults: ['images'], what: 'images to PDF' },
} satisfies ChainSpecs;
