// The wiring list of table modules: each domain keeps its tables in its own file.
export * from './accounts';
export * from './notifications';
export * from './billing';
export * from './jobs';
export * from './signatures';
export * from './stripe-billing';
export * from './requests';
