/**
 * Which entries of a dictionary a parse builds: a name maps to `true` (its value built whole) or to the KeySet of
 * its own dictionary value. Other entries are passed over, checked but unbuilt (building a page's resources cost
 * more than the rest of a scan).
 */
export type KeySet = ReadonlyMap<string, KeySet | true>;

const keySet = (entries: Array<string | [string, KeySet]>): KeySet =>
  new Map<string, KeySet | true>(entries.map((e) => (typeof e === 'string' ? [e, true] : e)));

const structure = [
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
];

/** The page tree alone: what counting pages and copying them read. */
export const treeKeys: KeySet = keySet(structure);

/**
 * What a scan reads: the structure, the page boxes, and the page content (content-size.ts): the content streams,
 * and the Form XObjects the resources offer (of the resources, only /XObject is built; resources in an object of
 * their own are read with these keys, hence /XObject at the top too).
 */
export const scannedKeys: KeySet = keySet([
  ...structure,
  'MediaBox',
  'CropBox',
  'TrimBox',
  'Rotate',
  'Contents',
  ['Resources', keySet(['XObject'])],
  'XObject',
  'Subtype',
]);

/**
 * What telling a scanned page apart reads (scan-pages.ts): the structure, the page's boxes, annotations and one
 * content stream, and the dictionary of the image it draws.
 */
export const scanPageKeys: KeySet = keySet([
  ...structure,
  'MediaBox',
  'CropBox',
  'TrimBox',
  'Rotate',
  'UserUnit',
  'Contents',
  'Annots',
  ['Resources', keySet(['XObject'])],
  'XObject',
  'Subtype',
  'Width',
  'Height',
  'BitsPerComponent',
  'ColorSpace',
  'ImageMask',
  'SMask',
  'Mask',
  'Decode',
]);
