/**
 * The QR area as one namespace: one file per operation (encode, decode), the payload formats in core/qr. Code inside
 * core imports the file it needs, never this list.
 */
export * from './decode';
export * from './encode';
