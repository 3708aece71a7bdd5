import {
  Combine,
  Contact,
  Droplets,
  FileOutput,
  Files,
  FileText,
  ImageIcon,
  QrCode,
  ScanText,
  type LucideIcon,
} from 'lucide-react';
import {
  ZBatchFields,
  ZConvertCommonFields,
  ZExtractTextFields,
  ZImageToPdfFields,
  ZMergePdfFields,
  ZOcrExtractFields,
  ZQrContactData,
  ZQrOptions,
  ZQrUrlData,
  ZWatermarkPdfFields,
} from '@docflow/contracts';
import type { ZodType } from 'zod';
import { boundsOf } from '../utils/schema-bounds';

/** The playground's endpoints as data (spec-2 §3 "Playground endpoint definition"). */

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
   * The contracts schema the server validates the non-file fields with; a test checks every field is in it.
   */
  schema: ZodType;
}

/** Limits, default and choices of a field, read from the server's own schema so the two cannot drift. */
const contract = (schema: Parameters<typeof boundsOf>[0], name: string) => {
  const { min, max, step, default: def, options } = boundsOf(schema, name);
  return { min, max, step, default: def, options };
};

const pdfAccept = 'application/pdf,.pdf';
const imageAccept = 'image/png,image/jpeg,image/gif,image/bmp,image/tiff,image/webp,image/svg+xml';

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

export const playgroundEndpoints: PlaygroundEndpoint[] = [
  {
    id: '/pdf/watermark',
    name: 'Watermark PDF',
    method: 'POST',
    description: 'Stamp a text watermark on every page of a PDF.',
    category: 'PDF',
    icon: Droplets,
    contentType: 'multipart/form-data',
    schema: ZWatermarkPdfFields,
    output: { kind: 'file', fileName: 'watermarked.pdf' },
    fields: [
      {
        name: 'file',
        label: 'PDF file',
        description: 'The document to watermark.',
        type: 'file',
        required: true,
        accept: pdfAccept,
        sampleFiles: ['document.pdf'],
      },
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
        ...contract(ZWatermarkPdfFields, 'position'),
      },
      {
        name: 'opacity',
        label: 'Opacity',
        description: 'From 0 (invisible) to 1 (opaque).',
        type: 'number',
        ...contract(ZWatermarkPdfFields, 'opacity'),
        step: 0.05,
      },
      {
        name: 'fontSize',
        label: 'Font size (pt)',
        description: 'Text size in points.',
        type: 'number',
        ...contract(ZWatermarkPdfFields, 'fontSize'),
        step: 1,
        // The server's default, stated in its schema's description rather than as a zod default.
        default: 48,
      },
      {
        name: 'color',
        label: 'Colour',
        description: 'Text colour.',
        type: 'color',
        ...contract(ZWatermarkPdfFields, 'color'),
      },
      {
        name: 'rotation',
        label: 'Rotation (°)',
        description: 'Degrees counter-clockwise; empty keeps the position’s own angle.',
        type: 'number',
        ...contract(ZWatermarkPdfFields, 'rotation'),
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
        ...contract(ZWatermarkPdfFields, 'spacingX'),
        step: 1,
      },
      {
        name: 'spacingY',
        label: 'Vertical spacing (pt)',
        description: 'Gap between tiles when repeated.',
        type: 'number',
        ...contract(ZWatermarkPdfFields, 'spacingY'),
        step: 1,
      },
    ],
  },
  {
    id: '/pdf/merge',
    name: 'Merge PDFs',
    method: 'POST',
    description: 'Combine several PDFs into one, in the order chosen.',
    category: 'PDF',
    icon: Combine,
    contentType: 'multipart/form-data',
    schema: ZMergePdfFields,
    output: { kind: 'file', fileName: 'merged.pdf' },
    hint: 'Merge takes 2 to 20 PDFs.',
    fields: [
      {
        name: 'files',
        label: 'PDF files',
        description: 'The PDFs to merge, 2 to 20.',
        type: 'files',
        required: true,
        min: 2,
        max: 20,
        accept: pdfAccept,
        sampleFiles: ['first.pdf', 'second.pdf'],
      },
    ],
  },
  {
    id: '/pdf/extract-text',
    name: 'Extract text',
    method: 'POST',
    description: 'Read the text of a PDF, page by page.',
    category: 'PDF',
    icon: FileText,
    contentType: 'multipart/form-data',
    schema: ZExtractTextFields,
    output: { kind: 'json' },
    fields: [
      {
        name: 'file',
        label: 'PDF file',
        description: 'The document to read.',
        type: 'file',
        required: true,
        accept: pdfAccept,
        sampleFiles: ['document.pdf'],
      },
      pageRange('Pages to read, e.g. 1-3,5; empty reads every page.'),
    ],
  },
  {
    id: '/qrcode/url',
    name: 'QR code for a URL',
    method: 'POST',
    description: 'Generate a PNG QR code that opens a web link.',
    category: 'QR Codes',
    icon: QrCode,
    contentType: 'application/json',
    schema: ZQrUrlData.extend(ZQrOptions.shape),
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
  },
  {
    id: '/qrcode/contact',
    name: 'QR code for a contact',
    method: 'POST',
    description: 'Generate a PNG QR code holding a vCard contact.',
    category: 'QR Codes',
    icon: Contact,
    contentType: 'application/json',
    schema: ZQrContactData.extend(ZQrOptions.shape),
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
  },
  {
    id: '/ocr/extract',
    name: 'OCR: extract text',
    method: 'POST',
    description: 'Recognise the text of an image or a scanned PDF.',
    category: 'OCR',
    icon: ScanText,
    contentType: 'multipart/form-data',
    output: { kind: 'json' },
    schema: ZOcrExtractFields,
    fields: [
      {
        name: 'file',
        label: 'Image or PDF',
        description: 'PNG, JPEG, TIFF, BMP, WebP or PDF.',
        type: 'file',
        required: true,
        accept: `${imageAccept},${pdfAccept}`,
        sampleFiles: ['scan.png'],
      },
      {
        name: 'languages',
        label: 'Languages',
        description: 'Language codes joined with +, e.g. eng+fra.',
        type: 'text',
        ...contract(ZOcrExtractFields, 'languages'),
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
  },
  {
    id: '/conversion/auto-to-pdf',
    name: 'Convert to PDF (auto)',
    method: 'POST',
    description: 'Convert any supported document to PDF; the format is detected.',
    category: 'Conversion',
    icon: FileOutput,
    contentType: 'multipart/form-data',
    schema: ZConvertCommonFields,
    output: { kind: 'file', fileName: 'document.pdf' },
    fields: [
      {
        name: 'file',
        label: 'Document',
        description: 'Word, Excel, PowerPoint, OpenDocument, HTML, Markdown, text, image…',
        type: 'file',
        required: true,
        sampleFiles: ['document.docx'],
      },
      pageRange('Keep only these pages of the result, e.g. 1-3,5.'),
      pdfa,
    ],
  },
  {
    id: '/conversion/batch-to-pdf',
    name: 'Batch convert to PDF',
    method: 'POST',
    description: 'Convert several documents at once; answers a zip of PDFs with a manifest.',
    category: 'Conversion',
    icon: Files,
    contentType: 'multipart/form-data',
    schema: ZBatchFields,
    output: { kind: 'file', fileName: 'converted.zip' },
    hint: 'Batch conversion takes 1 to 20 files, and a plan with batch access.',
    fields: [
      {
        name: 'files',
        label: 'Documents',
        description: 'The documents to convert, 1 to 20.',
        type: 'files',
        required: true,
        min: 1,
        max: 20,
        sampleFiles: ['report.docx', 'figures.xlsx'],
      },
      pdfa,
    ],
  },
  {
    id: '/conversion/image-to-pdf',
    name: 'Images to PDF',
    method: 'POST',
    description: 'Turn images into a PDF, one page per image.',
    category: 'Conversion',
    icon: ImageIcon,
    contentType: 'multipart/form-data',
    schema: ZImageToPdfFields,
    output: { kind: 'file', fileName: 'images.pdf' },
    fields: [
      {
        name: 'files',
        label: 'Images',
        description: 'JPEG, PNG, GIF, BMP, TIFF, WebP or SVG, in page order.',
        type: 'files',
        required: true,
        min: 1,
        accept: imageAccept,
        sampleFiles: ['photo.jpg'],
      },
      {
        name: 'pageSize',
        label: 'Page size',
        description: 'fit makes each page the size of its image.',
        type: 'select',
        ...contract(ZImageToPdfFields, 'pageSize'),
      },
      {
        name: 'orientation',
        label: 'Orientation',
        description: 'auto turns pages landscape for wide images.',
        type: 'select',
        ...contract(ZImageToPdfFields, 'orientation'),
      },
      {
        name: 'margin',
        label: 'Margin (pt)',
        description: 'Space around each image, in points.',
        type: 'number',
        ...contract(ZImageToPdfFields, 'margin'),
        step: 1,
      },
    ],
  },
];

export const categoryTones: Record<PlaygroundCategory, 'indigo' | 'green' | 'amber' | 'rose'> = {
  PDF: 'rose',
  'QR Codes': 'indigo',
  OCR: 'amber',
  Conversion: 'green',
};

export const findEndpoint = (id: string): PlaygroundEndpoint | undefined =>
  playgroundEndpoints.find((e) => e.id === id);
