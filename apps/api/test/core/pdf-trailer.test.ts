import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { readPdfEnd } from '../../src/core/pdf-trailer';
import { trailerSize } from '../../src/core/modules/qpdf/index';
import { fixUniteTrailer } from '../../src/core/modules/poppler/index';

const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-trailer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function pdfFile(name: string, useObjectStreams: boolean): Promise<string> {
  const doc = await PDFDocument.create();
  doc.addPage();
  doc.addPage();
  const file = path.join(dir, name);
  writeFileSync(file, await doc.save({ useObjectStreams }));
  return file;
}

async function endOf(file: string) {
  const fh = await open(file, 'r');
  try {
    return await readPdfEnd(fh);
  } finally {
    await fh.close();
  }
}

describe('readPdfEnd', () => {
  it('finds startxref, the trailer and the xref table of a classic file', async () => {
    const end = await endOf(await pdfFile('classic.pdf', false));
    expect(end).not.toBeNull();
    expect(end!.section).toMatch(/^xref\s+0\s+\d+/);
    expect(end!.tail.slice(end!.trailerAt)).toMatch(/^trailer\s*<</);
  });

  it('finds the xref stream object of a compact file (no trailer keyword)', async () => {
    const end = await endOf(await pdfFile('stream.pdf', true));
    expect(end!.section).toMatch(/^\d+\s+\d+\s+obj\b[\s\S]*\/Type\s*\/XRef/);
    expect(end!.trailerAt).toBe(-1);
  });

  it('is null for a file that does not end with startxref and %%EOF', async () => {
    const file = path.join(dir, 'cut.pdf');
    const whole = readFileSync(await pdfFile('whole.pdf', false));
    writeFileSync(file, whole.subarray(0, whole.length - 20));
    expect(await endOf(file)).toBeNull();
  });
});

describe('the engines reading the end of a PDF', () => {
  it('qpdf: trailerSize reads /Size from a trailer and from an xref stream', async () => {
    for (const streams of [false, true]) {
      const file = await pdfFile(`size-${streams}.pdf`, streams);
      const declared = /\/Size\s+(\d+)/.exec(readFileSync(file, 'latin1'))![1];
      expect(await trailerSize(file)).toBe(Number(declared));
    }
  });

  it('poppler: fixUniteTrailer sets /Size to the xref table length, keeping every offset', async () => {
    const file = await pdfFile('unite.pdf', false);
    const text = readFileSync(file, 'latin1');
    const entries = Number(/xref\s+0\s+(\d+)/.exec(text)![1]);
    writeFileSync(file, Buffer.from(text.replace(/\/Size\s+\d+/, '/Size 1'), 'latin1'));
    await fixUniteTrailer(file);
    const fixed = readFileSync(file, 'latin1');
    expect(/\/Size\s+(\d+)/.exec(fixed)![1]).toBe(String(entries));
    expect(await trailerSize(file)).toBe(entries);
  });
});
