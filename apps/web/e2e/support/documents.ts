import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/**
 * `pages_<n>.pdf`: n A4 pages whose only text is "Page k", large enough to read back by OCR from a 150 dpi
 * rendering. Written into a new temporary folder; the caller may remove it.
 */
export async function numberedPagesPdf(n: number): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let k = 1; k <= n; k++) doc.addPage([595, 842]).drawText(`Page ${k}`, { x: 72, y: 740, size: 28, font });
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'docflow-e2e-pdf-')), `pages_${n}.pdf`);
  writeFileSync(file, await doc.save());
  return file;
}
