import { FileOutput, FileText, QrCode, ScanText, type LucideIcon } from 'lucide-react';
import type { CatalogueEntry, TCatalogueGroup } from '@docflow/contracts';
import { fieldsOfSchema } from '../utils/schema-fields';
import type { EndpointUi } from './endpoints';

export const pdfAccept = 'application/pdf,.pdf';
export const imageAccept = 'image/png,image/jpeg,image/gif,image/bmp,image/tiff,image/webp,image/svg+xml';

const iconOfGroup: Partial<Record<TCatalogueGroup, LucideIcon>> = {
  pdf: FileText,
  qrcode: QrCode,
  ocr: ScanText,
  conversion: FileOutput,
  batch: FileOutput,
};

const ACRONYMS = new Set(['pdf', 'pdfa', 'html', 'url', 'epub', 'qr', 'ocr', 'csv', 'json', 'xlsx']);

/** `/conversion/word-to-pdf` → "Word to PDF"; `/qrcode/wifi` → "QR code: wifi". */
export function nameOfPath(path: string): string {
  const [group = '', ...rest] = path.split('/').filter(Boolean);
  const words = (rest.length ? rest : [group])
    .join(' ')
    .split(/[-\s]+/)
    .map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w));
  const text = words.join(' ');
  const named = text.charAt(0).toUpperCase() + text.slice(1);
  if (group === 'qrcode') return `QR code: ${rest.join(' ')}`;
  if (group === 'ocr') return `OCR: ${named.charAt(0).toLowerCase()}${named.slice(1)}`;
  return named;
}

/** The name a file answer is saved under in the code examples. */
function fileNameOf(entry: CatalogueEntry): string {
  const slug = entry.path.split('/').filter(Boolean).slice(1).join('-') || 'result';
  if (entry.group === 'qrcode') return `${slug}.png`;
  if (/to-images|split|extract-images|batch|forms\/merge/.test(entry.path)) return `${slug}.zip`;
  if (/to-image$/.test(entry.path)) return `${slug}.png`;
  return `${slug}.pdf`;
}

/** What the upload of an entry is, in the form. */
function uploadOf(entry: CatalogueEntry): EndpointUi['upload'] {
  const files = entry.files;
  if (!files || files.max === 0) return undefined;
  const several = files.max > 1;
  if (files.field === 'image')
    return { label: 'Image', description: 'The image to read.', accept: imageAccept, sampleFiles: ['image.png'] };
  if (entry.group === 'ocr')
    return {
      label: 'Image or PDF',
      description: 'PNG, JPEG, TIFF, BMP, WebP or PDF.',
      accept: `${imageAccept},${pdfAccept}`,
      sampleFiles: ['scan.png'],
    };
  if (entry.group === 'pdf')
    return several
      ? {
          label: 'PDF files',
          description: 'The PDFs, {count}.',
          accept: pdfAccept,
          sampleFiles: ['first.pdf', 'second.pdf'],
        }
      : { label: 'PDF file', description: 'The document.', accept: pdfAccept, sampleFiles: ['document.pdf'] };
  return several
    ? { label: 'Documents', description: 'The files, {count}.', sampleFiles: ['document.docx'] }
    : { label: 'Document', description: 'The file to convert.', sampleFiles: ['document.docx'] };
}

/**
 * The form of an endpoint nobody wrote one for: its name from its path, its summary, its upload from the catalogue's
 * file counts, and one control per field of the schema the server validates with.
 */
export function generatedUi(entry: CatalogueEntry): EndpointUi {
  return {
    name: nameOfPath(entry.path),
    description: entry.summary,
    icon: iconOfGroup[entry.group] ?? FileText,
    output: entry.answer === 'data' ? { kind: 'json' } : { kind: 'file', fileName: fileNameOf(entry) },
    upload: uploadOf(entry),
    fields: entry.fields ? fieldsOfSchema(entry.fields) : [],
  };
}
