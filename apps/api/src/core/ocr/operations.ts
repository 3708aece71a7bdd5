/**
 * The OCR operations as the API offers them, composed from the engine chains (render, ocr, merge, stamp) and the
 * image helpers. Framework-free: routes parse the request, call one of these, and send what comes back. One file
 * per operation under operations/, what they share in operations/common.ts.
 */
export * from './operations/common';
export * from './operations/extract';
export * from './operations/enhanced';
export * from './operations/quality';
export * from './operations/searchable-pdf';
