import {
  Camera,
  Combine,
  Crop,
  Contact,
  Droplets,
  FileOutput,
  Files,
  FileText,
  FileX,
  Workflow,
  ImageIcon,
  QrCode,
  ScanText,
  type LucideIcon,
} from 'lucide-react';
import {
  ZQrOptions,
  catalogueEntry,
  endpointCatalogue,
  type TCatalogueGroup,
  type TCataloguePath,
} from '@docflow/contracts';
import type { ZodType } from 'zod';
import { boundsOf } from '../utils/schema-bounds';
import { generatedUi, imageAccept, pdfAccept } from './generated-ui';

/**
 * The playground's endpoints as data (spec-2 §3 "Playground endpoint definition"): path, method, group, body type,
 * schema and file counts come from the contracts' endpoint catalogue; this file adds only what the form shows.
 */

export type FieldType = 'file' | 'files' | 'text' | 'url' | 'email' | 'number' | 'color' | 'select' | 'checkbox';

export interface PlaygroundField {
  /** The form (or JSON) field name the API reads. */
  name: string;
  label: string;
  description: string;
  type: FieldType;
  required?: boolean;
  default?: string | number | boolean;
  /** Numbers: the value bounds. Files: how many files. */
  min?: number;
  max?: number;
  step?: number;
  options?: string[];
  /** File inputs: the `accept` filter. */
  accept?: string;
  placeholder?: string;
  /** File names the code examples show until files are chosen. */
  sampleFiles?: string[];
}

export type PlaygroundCategory = 'PDF' | 'QR Codes' | 'OCR' | 'Conversion';
export type PlaygroundContentType = 'multipart/form-data' | 'application/json';

export interface PlaygroundEndpoint {
  /** The path under the API base, e.g. /pdf/merge. */
  id: string;
  name: string;
  method: 'POST';
  description: string;
  category: PlaygroundCategory;
  icon: LucideIcon;
  contentType: PlaygroundContentType;
  fields: PlaygroundField[];
  /** What a success answers, for the code examples: a file to save, or JSON to print. */
  output: { kind: 'file'; fileName: string } | { kind: 'json' };
  hint?: string;
  /**
   * The form was generated from the server's schema: its labels and help are the API reference's own words (English,
   * as the API documents them), not the dashboard's catalogues.
   */
  generated?: true;
  /**
   * The contracts schema the server validates the non-file fields with; a test checks every field is in it.
   */
  schema: ZodType;
}

/** Limits, default and choices of a field, read from the server's own schema so the two cannot drift. */
const contract = (schema: Parameters<typeof boundsOf>[0], name: string) => {
  const { min, max, step, default: def, options } = boundsOf(schema, name);
  return { min, max, step, default: def, options };
};

const categoryOfGroup: Record<TCatalogueGroup, PlaygroundCategory | undefined> = {
  pdf: 'PDF',
  qrcode: 'QR Codes',
  ocr: 'OCR',
  conversion: 'Conversion',
  batch: 'Conversion',
  webhook: undefined,
  '*': undefined,
};

/** What the form shows of the uploaded files; the field name, how many and whether required come from the API. */
interface FileFieldUi {
  label: string;
  /** What the files are; `{count}` stands for how many the route takes. */
  description: string;
  accept?: string;
  sampleFiles: string[];
}

export interface EndpointUi {
  name: string;
  description: string;
  icon: LucideIcon;
  output: PlaygroundEndpoint['output'];
  /** The uploaded files, for routes that take some. */
  upload?: FileFieldUi;
  fields: PlaygroundField[];
  hint?: (count: string) => string;
}

const countOf = (min: number, max: number) => (min === max ? `${min}` : `${min} to ${max}`);

/** A catalogue endpoint with the form's labels and hints. */
function endpoint(path: TCataloguePath, ui: EndpointUi): PlaygroundEndpoint {
  const entry = catalogueEntry(path);
  const category = categoryOfGroup[entry.group];
  if (entry.method !== 'POST' || !entry.fields || !category)
    throw new Error(`${path} cannot be tried in the playground`);
  const files = entry.files;
  const count = files ? countOf(files.min, files.max) : '';
  const fileFields: PlaygroundField[] =
    files && ui.upload
      ? [
          {
            name: files.field,
            label: ui.upload.label,
            description: ui.upload.description.replace('{count}', count),
            type: files.max > 1 ? 'files' : 'file',
            required: files.min > 0,
            ...(files.max > 1 ? { min: files.min, max: files.max } : {}),
            accept: ui.upload.accept,
            sampleFiles: ui.upload.sampleFiles,
          },
        ]
      : [];
  return {
    id: entry.path,
    name: ui.name,
    method: 'POST',
    description: ui.description,
    category,
    icon: ui.icon,
    contentType: entry.body === 'json' ? 'application/json' : 'multipart/form-data',
    schema: entry.fields,
    output: ui.output,
    fields: [...fileFields, ...ui.fields],
    ...(ui.hint ? { hint: ui.hint(count) } : {}),
  };
}

const pageRange = (description: string): PlaygroundField => ({
  name: 'pageRange',
  label: 'Page range',
  description,
  type: 'text',
  placeholder: '1-3,5',
});

const pdfa: PlaygroundField = {
  name: 'pdfa',
  label: 'PDF/A',
  description: 'Answer an archival PDF/A-2b document.',
  type: 'checkbox',
  default: false,
};

const qrSize: PlaygroundField = {
  name: 'size',
  label: 'Size (px)',
  description: 'Width and height of the image, in pixels.',
  type: 'number',
  ...contract(ZQrOptions, 'size'),
};

const watermark = catalogueEntry('/pdf/watermark').fields!;
const crop = catalogueEntry('/pdf/crop').fields!;
const removeBlank = catalogueEntry('/pdf/remove-blank-pages').fields!;
const ocrExtract = catalogueEntry('/ocr/extract').fields!;
const imageToPdf = catalogueEntry('/conversion/image-to-pdf').fields!;
const urlToImage = catalogueEntry('/conversion/url-to-image').fields!;

/** The capture fields both screenshot routes take (their schemas share them). */
const screenshotFields: PlaygroundField[] = [
  {
    name: 'format',
    label: 'Format',
    description: 'png is lossless; jpeg and webp are smaller.',
    type: 'select',
    ...contract(urlToImage, 'format'),
  },
  {
    name: 'width',
    label: 'Width (px)',
    description: 'Width of the screen the page is laid out on.',
    type: 'number',
    ...contract(urlToImage, 'width'),
  },
  {
    name: 'height',
    label: 'Height (px)',
    description: 'Screen height: the image height when clipped, its least height otherwise.',
    type: 'number',
    ...contract(urlToImage, 'height'),
  },
  {
    name: 'clip',
    label: 'Clip to the screen',
    description: 'Capture only width × height instead of the whole page.',
    type: 'checkbox',
    default: false,
  },
  {
    name: 'quality',
    label: 'Quality',
    description: 'jpeg and webp only, 0 to 100.',
    type: 'number',
    ...contract(urlToImage, 'quality'),
  },
];

/** The endpoints with a form written by hand: labels, hints and the fields that matter first. */
const curatedEndpoints: PlaygroundEndpoint[] = [
  endpoint('/pdf/watermark', {
    name: 'Watermark PDF',
    description: 'Stamp a text watermark on every page of a PDF.',
    icon: Droplets,
    output: { kind: 'file', fileName: 'watermarked.pdf' },
    upload: {
      label: 'PDF file',
      description: 'The document to watermark.',
      accept: pdfAccept,
      sampleFiles: ['document.pdf'],
    },
    fields: [
      {
        name: 'text',
        label: 'Text',
        description: 'The watermark text.',
        type: 'text',
        required: true,
        default: 'CONFIDENTIAL',
      },
      {
        name: 'position',
        label: 'Position',
        description: 'Where the text goes; diagonal spans the page.',
        type: 'select',
        ...contract(watermark, 'position'),
      },
      {
        name: 'opacity',
        label: 'Opacity',
        description: 'From 0 (invisible) to 1 (opaque).',
        type: 'number',
        ...contract(watermark, 'opacity'),
        step: 0.05,
      },
      {
        name: 'fontSize',
        label: 'Font size (pt)',
        description: 'Text size in points.',
        type: 'number',
        ...contract(watermark, 'fontSize'),
        step: 1,
        // The server's default, stated in its schema's description rather than as a zod default.
        default: 48,
      },
      {
        name: 'color',
        label: 'Colour',
        description: 'Text colour.',
        type: 'color',
        ...contract(watermark, 'color'),
      },
      {
        name: 'rotation',
        label: 'Rotation (°)',
        description: 'Degrees counter-clockwise; empty keeps the position’s own angle.',
        type: 'number',
        ...contract(watermark, 'rotation'),
        step: 1,
        placeholder: '0',
      },
      {
        name: 'repeat',
        label: 'Repeat over the page',
        description: 'Tile the watermark over the whole page.',
        type: 'checkbox',
        default: false,
      },
      {
        name: 'spacingX',
        label: 'Horizontal spacing (pt)',
        description: 'Gap between tiles when repeated.',
        type: 'number',
        ...contract(watermark, 'spacingX'),
        step: 1,
      },
      {
        name: 'spacingY',
        label: 'Vertical spacing (pt)',
        description: 'Gap between tiles when repeated.',
        type: 'number',
        ...contract(watermark, 'spacingY'),
        step: 1,
      },
    ],
  }),
  endpoint('/pdf/merge', {
    name: 'Merge PDFs',
    description: 'Combine several PDFs into one, in the order chosen.',
    icon: Combine,
    output: { kind: 'file', fileName: 'merged.pdf' },
    hint: (count) => `Merge takes ${count} PDFs.`,
    upload: {
      label: 'PDF files',
      description: 'The PDFs to merge, {count}.',
      accept: pdfAccept,
      sampleFiles: ['first.pdf', 'second.pdf'],
    },
    fields: [],
  }),
  endpoint('/pdf/extract-text', {
    name: 'Extract text',
    description: 'Read the text of a PDF, page by page.',
    icon: FileText,
    output: { kind: 'json' },
    upload: {
      label: 'PDF file',
      description: 'The document to read.',
      accept: pdfAccept,
      sampleFiles: ['document.pdf'],
    },
    fields: [pageRange('Pages to read, e.g. 1-3,5; empty reads every page.')],
  }),
  endpoint('/pdf/crop', {
    name: 'Crop or scale pages',
    description: 'Crop pages to a box or to their content, or scale them to a paper size.',
    icon: Crop,
    output: { kind: 'file', fileName: 'cropped.pdf' },
    upload: {
      label: 'PDF file',
      description: 'The document to crop or scale.',
      accept: pdfAccept,
      sampleFiles: ['document.pdf'],
    },
    fields: [
      {
        name: 'mode',
        label: 'Mode',
        description: 'box: crop to the box; content: crop to what is drawn; scale: fit to a paper size.',
        type: 'select',
        ...contract(crop, 'mode'),
        default: 'content',
      },
      {
        name: 'box',
        label: 'Box',
        description: 'For box: x,y,width,height from the bottom-left corner of the page as shown.',
        type: 'text',
        placeholder: '36,36,523,770',
      },
      {
        name: 'unit',
        label: 'Unit',
        description: 'Unit of the box and the margin.',
        type: 'select',
        ...contract(crop, 'unit'),
      },
      {
        name: 'margin',
        label: 'Margin',
        description: 'For content: space kept around what is drawn.',
        type: 'number',
        ...contract(crop, 'margin'),
        step: 1,
      },
      {
        name: 'size',
        label: 'Paper size',
        description: 'For scale: the paper the pages are scaled onto, in their own orientation.',
        type: 'select',
        ...contract(crop, 'size'),
        default: 'A4',
      },
      {
        name: 'pages',
        label: 'Pages',
        description: 'Pages to change, e.g. 1-3,5; empty changes every page.',
        type: 'text',
        placeholder: '1-3,5',
      },
    ],
  }),
  endpoint('/pdf/remove-blank-pages', {
    name: 'Remove blank pages',
    description: 'Drop the pages with no text and next to no ink, scanned blank sheets included.',
    icon: FileX,
    output: { kind: 'file', fileName: 'no-blank-pages.pdf' },
    upload: {
      label: 'PDF file',
      description: 'The document to clean.',
      accept: pdfAccept,
      sampleFiles: ['scans.pdf'],
    },
    fields: [
      {
        name: 'threshold',
        label: 'Ink threshold',
        description: 'A page is blank when at most this share of it is ink (0.001 = 0.1 %).',
        type: 'number',
        ...contract(removeBlank, 'threshold'),
        step: 0.0005,
      },
      {
        name: 'whiteLevel',
        label: 'White level',
        description: 'Grey (0-255) from which a pixel counts as paper.',
        type: 'number',
        ...contract(removeBlank, 'whiteLevel'),
        step: 1,
      },
    ],
  }),
  endpoint('/qrcode/url', {
    name: 'QR code for a URL',
    description: 'Generate a PNG QR code that opens a web link.',
    icon: QrCode,
    output: { kind: 'file', fileName: 'qrcode.png' },
    fields: [
      {
        name: 'url',
        label: 'URL',
        description: 'The absolute link to encode.',
        type: 'url',
        required: true,
        default: 'https://example.com',
      },
      qrSize,
      {
        name: 'color',
        label: 'Colour',
        description: 'Colour of the modules.',
        type: 'color',
        ...contract(ZQrOptions, 'color'),
      },
      {
        name: 'background',
        label: 'Background',
        description: 'Background colour.',
        type: 'color',
        ...contract(ZQrOptions, 'background'),
      },
    ],
  }),
  endpoint('/qrcode/contact', {
    name: 'QR code for a contact',
    description: 'Generate a PNG QR code holding a vCard contact.',
    icon: Contact,
    output: { kind: 'file', fileName: 'contact-qrcode.png' },
    fields: [
      { name: 'firstName', label: 'First name', description: 'Given name.', type: 'text', default: 'Jane' },
      { name: 'lastName', label: 'Last name', description: 'Family name.', type: 'text', default: 'Doe' },
      {
        name: 'phone',
        label: 'Phone',
        description: 'Digits, with an optional leading +.',
        type: 'text',
        placeholder: '+33 1 23 45 67 89',
      },
      {
        name: 'email',
        label: 'E-mail',
        description: 'E-mail address.',
        type: 'email',
        placeholder: 'jane@example.com',
      },
      { name: 'company', label: 'Company', description: 'Organisation.', type: 'text' },
      qrSize,
    ],
  }),
  endpoint('/ocr/extract', {
    name: 'OCR: extract text',
    description: 'Recognise the text of an image or a scanned PDF.',
    icon: ScanText,
    output: { kind: 'json' },
    upload: {
      label: 'Image or PDF',
      description: 'PNG, JPEG, TIFF, BMP, WebP or PDF.',
      accept: `${imageAccept},${pdfAccept}`,
      sampleFiles: ['scan.png'],
    },
    fields: [
      {
        name: 'languages',
        label: 'Languages',
        description: 'Language codes joined with +, e.g. eng+fra.',
        type: 'text',
        ...contract(ocrExtract, 'languages'),
      },
      {
        name: 'preprocessImage',
        label: 'Preprocess the image',
        description: 'Clean up the image before recognition.',
        type: 'checkbox',
        default: false,
      },
      {
        name: 'includeWordDetails',
        label: 'Include word details',
        description: 'Add each word with its bounding box and confidence.',
        type: 'checkbox',
        default: false,
      },
    ],
  }),
  endpoint('/conversion/auto-to-pdf', {
    name: 'Convert to PDF (auto)',
    description: 'Convert any supported document to PDF; the format is detected.',
    icon: FileOutput,
    output: { kind: 'file', fileName: 'document.pdf' },
    upload: {
      label: 'Document',
      description: 'Word, Excel, PowerPoint, OpenDocument, HTML, Markdown, text, image…',
      sampleFiles: ['document.docx'],
    },
    fields: [pageRange('Keep only these pages of the result, e.g. 1-3,5.'), pdfa],
  }),
  endpoint('/conversion/batch-to-pdf', {
    name: 'Batch convert to PDF',
    description: 'Convert several documents at once; answers a zip of PDFs with a manifest.',
    icon: Files,
    output: { kind: 'file', fileName: 'converted.zip' },
    hint: (count) => `Batch conversion takes ${count} files, and a plan with batch access.`,
    upload: {
      label: 'Documents',
      description: 'The documents to convert, {count}.',
      sampleFiles: ['report.docx', 'figures.xlsx'],
    },
    fields: [pdfa],
  }),
  endpoint('/conversion/url-to-image', {
    name: 'Web page screenshot',
    description: 'Capture a public web page as a PNG, JPEG or WebP image.',
    icon: Camera,
    output: { kind: 'file', fileName: 'screenshot.png' },
    fields: [
      {
        name: 'url',
        label: 'URL',
        description: 'The http(s) page to capture; private addresses are refused.',
        type: 'url',
        required: true,
        default: 'https://example.com',
      },
      ...screenshotFields,
    ],
  }),
  endpoint('/conversion/html-to-image', {
    name: 'HTML screenshot',
    description: 'Capture an HTML page and its assets as an image.',
    icon: Camera,
    output: { kind: 'file', fileName: 'index.png' },
    upload: {
      label: 'HTML page and assets',
      description: 'index.html and the images, CSS and fonts it uses ({count}).',
      accept: 'text/html,.html,.htm,text/css,.css,image/*,font/*,.woff,.woff2,.ttf',
      sampleFiles: ['index.html', 'logo.png'],
    },
    fields: screenshotFields,
  }),
  endpoint('/pipeline', {
    name: 'Pipeline',
    description: 'One upload through several endpoints in one call: a conversion, then PDF operations.',
    icon: Workflow,
    output: { kind: 'file', fileName: 'report.pdf' },
    upload: {
      label: 'Document',
      description: 'A PDF, or a document the first stage converts.',
      sampleFiles: ['report.docx'],
    },
    fields: [
      {
        name: 'stages',
        label: 'Stages (JSON)',
        description:
          'In order: {"op": endpoint, ...its fields}. Each stage is checked with its endpoint\'s fields and counts as one call.',
        type: 'text',
        required: true,
        default: JSON.stringify([
          { op: '/conversion/auto-to-pdf' },
          { op: '/pdf/watermark', text: 'DRAFT' },
          { op: '/pdf/page-numbers' },
        ]),
      },
    ],
  }),
  endpoint('/conversion/image-to-pdf', {
    name: 'Images to PDF',
    description: 'Turn images into a PDF, one page per image.',
    icon: ImageIcon,
    output: { kind: 'file', fileName: 'images.pdf' },
    upload: {
      label: 'Images',
      description: 'JPEG, PNG, GIF, BMP, TIFF, WebP or SVG, in page order ({count}).',
      accept: imageAccept,
      sampleFiles: ['photo.jpg'],
    },
    fields: [
      {
        name: 'pageSize',
        label: 'Page size',
        description: 'fit makes each page the size of its image.',
        type: 'select',
        ...contract(imageToPdf, 'pageSize'),
      },
      {
        name: 'orientation',
        label: 'Orientation',
        description: 'auto turns pages landscape for wide images.',
        type: 'select',
        ...contract(imageToPdf, 'orientation'),
      },
      {
        name: 'margin',
        label: 'Margin (pt)',
        description: 'Space around each image, in points.',
        type: 'number',
        ...contract(imageToPdf, 'margin'),
        step: 1,
      },
    ],
  }),
];

const categoryOrder: PlaygroundCategory[] = ['PDF', 'Conversion', 'OCR', 'QR Codes'];

/**
 * Every processing endpoint of the catalogue: first the hand-written forms (the spec's endpoints, in its order), then
 * for each of the others a form generated from its schema, by category in catalogue order: a new endpoint appears
 * here with no edit.
 */
export const playgroundEndpoints: PlaygroundEndpoint[] = [
  ...curatedEndpoints,
  ...endpointCatalogue
    .filter((e) => e.method === 'POST' && e.fields && categoryOfGroup[e.group])
    .filter((e) => !curatedEndpoints.some((c) => c.id === e.path))
    .map((e): PlaygroundEndpoint => ({ ...endpoint(e.path, generatedUi(e)), generated: true }))
    .sort((a, b) => categoryOrder.indexOf(a.category) - categoryOrder.indexOf(b.category)),
];

export const categoryTones: Record<PlaygroundCategory, 'indigo' | 'green' | 'amber' | 'rose'> = {
  PDF: 'rose',
  'QR Codes': 'indigo',
  OCR: 'amber',
  Conversion: 'green',
};

export const findEndpoint = (id: string): PlaygroundEndpoint | undefined =>
  playgroundEndpoints.find((e) => e.id === id);
