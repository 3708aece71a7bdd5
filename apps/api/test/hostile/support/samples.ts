import { readFileSync } from 'node:fs';
import { createDeflate, createDeflateRaw, crc32, deflateSync } from 'node:zlib';
import { testDocument } from '../../fixtures/documents';
import { damagedFlateBombPdf, flateBombPdf, formBombPdf } from '../../fixtures/pdfs';
import { makeZip, zipOfRawEntries } from '../../fixtures/zip';

/** A real document of one accepted type, as the suite mutates and renames it. */
export interface Sample {
  ext: string;
  bytes: Buffer;
}

const epub = (chapter: string) =>
  makeZip([
    { name: 'mimetype', data: 'application/epub+zip', store: true },
    {
      name: 'META-INF/container.xml',
      data: '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    },
    {
      name: 'OEBPS/content.opf',
      data: '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata><dc:title xmlns:dc="http://purl.org/dc/elements/1.1/">Book</dc:title></metadata><manifest><item id="c1" href="ch1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>',
    },
    { name: 'OEBPS/ch1.xhtml', data: chapter },
  ]);

/** One small valid document of each type the processing routes take (made by the project's fixtures). */
export async function realSamples(): Promise<Sample[]> {
  const read = async (name: Parameters<typeof testDocument>[0]) => readFileSync(await testDocument(name));
  const png = await read('watermark.png');
  const sharp = (await import('sharp')).default;
  return [
    // Two pages: several, for the page routes, and a third fewer pages for the OCR routes to read in every case.
    { ext: 'pdf', bytes: await read('titled_alpha.pdf') },
    { ext: 'docx', bytes: await read('page_1.docx') },
    { ext: 'xlsx', bytes: await read('wide-sheet.xlsx') },
    { ext: 'ppsx', bytes: await read('slideshow.ppsx') },
    { ext: 'fodt', bytes: await read('embedded-image.fodt') },
    { ext: 'csv', bytes: await read('sheet.csv') },
    { ext: 'png', bytes: png },
    { ext: 'jpg', bytes: await sharp(png).jpeg().toBuffer() },
    { ext: 'tiff', bytes: await sharp(png).tiff().toBuffer() },
    { ext: 'txt', bytes: Buffer.from('Plain text, line one.\nLine two.\n') },
    { ext: 'md', bytes: Buffer.from('# Title\n\nSome *Markdown* text.\n') },
    { ext: 'html', bytes: Buffer.from('<!doctype html><html><body><h1>Page</h1></body></html>') },
    { ext: 'epub', bytes: epub('<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Chapter one</p></body></html>') },
  ];
}

/** Deflate `mb` MB of `block` repeated, streaming (raw: for zip entries). */
function deflateRepeated(block: Buffer, mb: number, raw: boolean): Promise<Buffer> {
  const d = raw ? createDeflateRaw({ level: 9 }) : createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  d.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    d.on('end', () => resolve(Buffer.concat(chunks)));
    d.on('error', reject);
  });
  const times = Math.ceil((mb * 1_048_576) / block.length);
  (async () => {
    for (let i = 0; i < times; i++) if (!d.write(block)) await new Promise((r) => d.once('drain', r));
    d.end();
  })().catch((err: unknown) => d.destroy(err as Error));
  return done;
}

/** A zip whose one deflated entry is given already compressed, with the sizes it declares (which may lie). */
function zipOfDeflated(
  entries: Array<{ name: string; deflated: Buffer; size: number; crc: number; stored?: Buffer }>,
): Buffer {
  return zipOfRawEntries(
    entries.map((e) => ({
      name: e.name,
      body: e.stored ?? e.deflated,
      method: e.stored ? 0 : 8,
      crc: e.crc,
      size: e.size,
    })),
  );
}

/** A PNG of `side` × `side` grey pixels: a few hundred KB that decode to side² bytes. */
async function pngBomb(side: number): Promise<Buffer> {
  const row = Buffer.alloc(side + 1); // filter byte 0, then zeros
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.concat(Array.from({ length: Math.min(side, 256) }, () => row));
  const idat = await deflateRepeated(rows, Math.ceil((side * (side + 1)) / 1_048_576), false);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface Bomb {
  label: string;
  name: string;
  bytes: Buffer;
}

/**
 * Decompression bombs, built once: zips (DOCX, XLSX, EPUB) whose entry inflates to 1 GB (declared honestly, or
 * declared small), a zip of 20,000 entries, a PDF whose content stream inflates to 300 MB, a 20,000 × 20,000 PNG.
 */
export async function bombs(): Promise<Bomb[]> {
  const xml = Buffer.from('<w:p><w:r><w:t>bomb</w:t></w:r></w:p>'.repeat(4096));
  const gb = await deflateRepeated(xml, 1024, true);
  const big = { deflated: gb, size: 1024 * 1_048_576, crc: 0 };
  const contentTypes = {
    name: '[Content_Types].xml',
    deflated: deflateSync(Buffer.alloc(0)),
    size: 0,
    crc: 0,
    stored: Buffer.from(
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
  };
  contentTypes.size = contentTypes.stored.length;
  const many = makeZip(
    Array.from({ length: 20_000 }, (_, i) => ({ name: `word/media/${i}.xml`, data: 'x', store: true })),
  );
  return [
    {
      label: 'docx zip bomb (1 GB entry)',
      name: 'bomb.docx',
      bytes: zipOfDeflated([contentTypes, { name: 'word/document.xml', ...big }]),
    },
    {
      label: 'docx zip bomb (1 GB entry declared as 1 KB)',
      name: 'liar.docx',
      bytes: zipOfDeflated([contentTypes, { name: 'word/document.xml', ...big, size: 1024 }]),
    },
    {
      label: 'xlsx zip bomb',
      name: 'bomb.xlsx',
      bytes: zipOfDeflated([contentTypes, { name: 'xl/workbook.xml', ...big }]),
    },
    {
      label: 'epub zip bomb',
      name: 'bomb.epub',
      bytes: zipOfDeflated([
        { name: 'mimetype', deflated: Buffer.alloc(0), size: 20, crc: 0, stored: Buffer.from('application/epub+zip') },
        { name: 'OEBPS/ch1.xhtml', ...big },
      ]),
    },
    { label: 'zip of 20,000 entries', name: 'many.docx', bytes: many },
    {
      label: 'PDF flate bomb (300 MB content)',
      name: 'bomb.pdf',
      bytes: readFileSync(await flateBombPdf('text', 300)),
    },
    {
      label: 'PDF flate bomb in a Form XObject (300 MB)',
      name: 'form-bomb.pdf',
      bytes: readFileSync(await formBombPdf()),
    },
    {
      label: 'PDF flate bomb without a usable cross-reference',
      name: 'damaged-bomb.pdf',
      bytes: readFileSync(await damagedFlateBombPdf()),
    },
    { label: 'PNG 20,000 × 20,000', name: 'bomb.png', bytes: await pngBomb(20_000) },
  ];
}
