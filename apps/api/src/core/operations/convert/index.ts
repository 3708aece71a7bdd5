/**
 * The conversion area as one namespace: one file per operation (to-pdf, to-image, convert-source, build-site,
 * detect-format) and the routes' source rules (sources.ts). The HTML builders they draw on (Markdown, text, EPUB,
 * safe zip reading, print options) live in core/convert. Code inside core imports the file it needs, never this list.
 */
export * from './build-site';
export * from './convert-source';
export * from './detect-format';
export * from './sources';
export * from './to-image';
export * from './to-pdf';
