/**
 * The PDF operations as the API offers them, composed from the engine chains. Framework-free: routes parse the
 * request, call one of these, and send what comes back. One file per family of operations under operations/.
 */
export * from './operations/job';
export * from './operations/speculation';
export * from './operations/page-assembly';
export * from './operations/stamps';
export * from './operations/security';
export * from './operations/metadata';
export * from './operations/size';
export * from './operations/images';
export * from './operations/rewrites';
export * from './operations/outline';
