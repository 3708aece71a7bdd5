/**
 * The dictionary entries a scan reads: trailers, xref and object stream dictionaries, the catalog, page tree nodes
 * and pages (their /Contents included). Every other entry of a top-level dictionary is passed over unbuilt.
 */
export const scannedKeys: ReadonlySet<string> = new Set([
  // trailer and xref streams
  'Root',
  'Encrypt',
  'Prev',
  'XRefStm',
  'Size',
  'W',
  'Index',
  // streams
  'Type',
  'Length',
  'Filter',
  'DecodeParms',
  'N',
  'First',
  // catalog and page tree
  'Pages',
  'Kids',
  'Count',
  'MediaBox',
  'CropBox',
  'TrimBox',
  'Rotate',
  // page content (content-size.ts): the content streams, and the Form XObjects the resources offer
  'Contents',
  'Resources',
  'XObject',
  'Subtype',
]);
