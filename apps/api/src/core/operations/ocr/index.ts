/**
 * The OCR operations as the API offers them, composed from the engine chains (render, ocr, merge, stamp) and the
 * image helpers (core/ocr/image.ts). Framework-free: routes parse the request, call one of these, and send what comes
 * back. One file per operation here, what they share in common.ts; invisible-text.ts, page-fixes.ts and
 * split-page.ts are searchable-pdf.ts's own steps. Code inside core imports the file it needs, never this list.
 */
export * from './common';
export * from './enhanced';
export * from './extract';
export * from './input';
export * from './languages';
export * from './quality';
export * from './searchable-pdf';
