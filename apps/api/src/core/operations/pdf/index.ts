/**
 * The PDF area as one namespace, for callers that compose many of its operations (`import * as ops`). Each
 * operation is a file of its own here, and what they share is job.ts (the job, input preparation, output files),
 * speculation.ts, page-boxes.ts and stamp-pages.ts. Code inside core imports the file it needs, never this list
 * (an operation importing it would import itself).
 */
export * from './add-margins';
export * from './analyze-compression';
export * from './analyze';
export * from './attach-files';
export * from './bookmarks-read';
export * from './bookmarks-write';
export * from './compress';
export * from './crop';
export * from './declare-pdfua';
export * from './delete-pages';
export * from './embed-factur-x';
export * from './extract-images';
export * from './extract-pages';
export * from './extract-text';
export * from './fill-form';
export * from './flatten';
export * from './form-rows';
export * from './job';
export * from './merge-form';
export * from './merge';
export * from './metadata-read';
export * from './metadata-update';
export * from './page-boxes';
export * from './page-ink';
export * from './page-numbers';
export * from './protect';
export * from './read-form-fields';
export * from './redact';
export * from './remove-blank-pages';
export * from './render';
export * from './reorder-pages';
export * from './repair';
export * from './rotate';
export * from './sign';
export * from './speculation';
export * from './split';
export * from './stamp-pages';
export * from './timestamp';
export * from './to-pdfa';
export * from './to-tagged-pdfa';
export * from './unlock';
export * from './verify-signatures';
export * from './watermark';
