/**
 * The PDF operations as one namespace, for callers that compose many of them (`import * as ops`). Each operation is
 * its own file here; code inside core imports the file, never this list (it would import itself through it).
 */
export * from './job';
export * from './speculation';
export * from './merge';
export * from './stamp-pages';
export * from './protect';
export * from './extract-text';
export * from './analyze-compression';
export * from './render';
export * from './repair';
export * from './bookmarks-write';
