import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFArray, PDFDocument, PDFName, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { errorOf, processingAppForSuite } from '../../fixtures/api';
import { encryptedPdf, formPdf } from '../../fixtures/pdfs';
import {
  actualTextPdf,
  cidFontPdf,
  cidLine,
  hiddenLayerPdf,
  inheritedLine,
  inheritedResourcesPdf,
  layerText,
  layout,
  lines,
  nestedFormsPdf,
  redactionPdf,
  rotatedLine,
  rotatedPdf,
  scannedPdf,
  undecodablePdf,
} from '../../fixtures/redact-pdfs';
import { textImage } from '../ocr/ocr-images';
import { saveBody } from '../../fixtures/results';

/**
 * POST /pdf/redact through the real route, proved with tools that did not do the redaction: poppler's pdftotext
 * (the whole page, and the text inside a rectangle as copy-paste from the rendered page would take it) and
 * pdfimages (the images' pixels), pdf-lib for the annotations and what a scrub removes.
 */
const api = processingAppForSuite();

const text = (file: string, page: number, rect?: { x: number; y: number; width: number; height: number }) => {
  // pdftotext's rectangle is in pixels at 72 dpi from the page's top-left corner: A4 is 842 pt high.
  const crop = rect
    ? ['-x', rect.x, '-y', 842 - rect.y - rect.height, '-W', rect.width, '-H', rect.height].map(String)
    : [];
  // -layout keeps a line whole across the gap a removed word leaves (without it pdftotext splits it in two blocks).
  const args = rect ? crop : ['-layout'];
  return execFileSync('pdftotext', ['-f', String(page), '-l', String(page), ...args, file, '-']).toString('utf8');
};
const lineOf = (page: string, containing: string) =>
  (page.split('\n').find((l) => l.includes(containing)) ?? '').trim();
const report = (res: { headers: Record<string, unknown> }) => JSON.parse(String(res.headers['x-redactions']));

/** Every object of the file, streams decompressed (qpdf's QDF form), as text: what a search of the raw file finds. */
function rawObjects(file: string): string {
  const out = `${file}.qdf`;
  execFileSync('qpdf', ['--qdf', '--object-streams=disable', '--decode-level=all', file, out]);
  return readFileSync(out).toString('latin1');
}
/** A string as it may be written in a content stream: in hex (either case) or as a literal. */
const written = (s: string) =>
  new RegExp(
    `${Buffer.from(s, 'latin1')
      .toString('hex')
      .replace(/[a-f]/g, (c) => `[${c}${c.toUpperCase()}]`)}|${s}`,
  );

/** The page's images as pdfimages extracts them, decoded to raw pixels. */
async function imagesOf(file: string, page: number) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-redact-img-'));
  chmodSync(dir, 0o755);
  execFileSync('pdfimages', ['-png', '-f', String(page), '-l', String(page), file, path.join(dir, 'i')]);
  return Promise.all(
    readdirSync(dir)
      .sort()
      .map(async (name) => {
        const { data, info } = await sharp(path.join(dir, name)).raw().toBuffer({ resolveWithObject: true });
        const at = (x: number, y: number) => [
          ...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + info.channels),
        ];
        return { width: info.width, height: info.height, at };
      }),
  );
}

describe('POST /pdf/redact', () => {
  it('text: the matches are gone from the text layer, the words around them stay on their line, counts per page', async () => {
    const res = await api.post('/pdf/redact', { text: 'John Smith' }, [{ content: await redactionPdf() }]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(report(res)).toMatchObject({
      matches: 2,
      pages: [
        { page: 1, matches: 1, areas: 0 },
        { page: 2, matches: 1, areas: 0 },
      ],
    });
    expect(res.headers['x-redaction-matches']).toBe('2');
    const file = saveBody(res.rawPayload);
    const [p1, p2] = [text(file, 1), text(file, 2)];
    expect(p1 + p2).not.toMatch(/John|Smith/);
    expect(lineOf(p1, 'Name:')).toMatch(/^Name:\s+, account 12345678, branch north\.$/);
    expect(lineOf(p2, 'Second page')).toMatch(/^Second page mentions\s+too\.$/);
    // Other lines and the other "JOHN" (not followed by Smith) are untouched.
    expect(p1).toContain(lines.p1[1]);
    expect(p1).toContain(lines.p1[2]);
    // Copy-paste from the rendered page over where the name was (Helvetica 12 pt: x 88.7-148.7 on the first line)
    // takes nothing.
    expect(text(file, 1, { x: 90, y: 757, width: 57, height: 12 }).trim()).toBe('');
    expect(text(await redactionPdf(), 1, { x: 90, y: 757, width: 57, height: 12 })).toMatch(/ohn Smit/);
    // Nor is it anywhere in the file: not in the rewritten streams, and the replaced ones are not left unreferenced.
    expect(rawObjects(await redactionPdf())).toMatch(written('John Smith'));
    expect(rawObjects(file)).not.toMatch(written('John'));
  });

  it('regex, whole words and case: what matches is what the options say', async () => {
    const pdf = await redactionPdf();
    const digits = await api.post('/pdf/redact', { text: '\\d{4}', regex: true, wholeWords: true }, [{ content: pdf }]);
    expect(digits.statusCode, digits.body.slice(0, 300)).toBe(200);
    // 12345678 is not a whole word of four digits; 4242 and 9999 are.
    expect(report(digits)).toMatchObject({ matches: 2, pages: [{ page: 2, matches: 2 }] });
    const d = saveBody(digits.rawPayload);
    expect(text(d, 1)).toContain('12345678');
    expect(lineOf(text(d, 2), 'Confidential')).toMatch(/^Confidential figures:\s+and\s+\.$/);

    const exact = await api.post('/pdf/redact', { text: 'JOHN', caseSensitive: true, wholeWords: true }, [
      { content: pdf },
    ]);
    expect(report(exact)).toMatchObject({ matches: 1, pages: [{ page: 1, matches: 1 }] });
    const e = text(saveBody(exact.rawPayload), 1);
    expect(lineOf(e, 'Call')).toMatch(/^Call\s+at noon, not johnny\.$/);
    expect(e).toContain('John Smith');

    const any = await api.post('/pdf/redact', { text: 'john' }, [{ content: pdf }]);
    // John (twice), JOHN, and johnny's first four letters.
    expect(report(any).matches).toBe(4);
    const a = text(saveBody(any.rawPayload), 1);
    expect(a.toLowerCase()).not.toContain('john');
    expect(lineOf(a, 'Call')).toMatch(/^Call\s+at noon, not\s+ny\.$/);
  });

  it('text inside a form XObject is removed from a copy of the form', async () => {
    const res = await api.post('/pdf/redact', { text: 'Bond' }, [{ content: await redactionPdf() }]);
    expect(report(res)).toMatchObject({ matches: 1, pages: [{ page: 1, matches: 1 }] });
    const p1 = text(saveBody(res.rawPayload), 1);
    expect(p1).not.toContain('Bond');
    expect(lineOf(p1, 'Inside a form')).toMatch(/^Inside a form: agent\s+reporting\.$/);
  });

  it('a Type0 font with two-byte codes (Identity-H, widths from /W): only the whole word goes', async () => {
    const pdf = await cidFontPdf();
    expect(lineOf(text(pdf, 1), 'Agent')).toBe(cidLine);
    const res = await api.post('/pdf/redact', { text: 'bob', wholeWords: true }, [{ content: pdf }]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(report(res)).toMatchObject({ matches: 1, glyphs: 3 });
    expect(lineOf(text(saveBody(res.rawPayload), 1), 'Agent')).toMatch(/^Agent\s+met Alice at the Bobcat bar\.$/);
  });

  it('a marked section whose glyphs were redacted loses the /ActualText that repeats them; others keep theirs', async () => {
    const pdf = await actualTextPdf();
    expect(rawObjects(pdf)).toMatch(/ActualText \(Pay \\\(net\\\) to Ivan Petrov\)/);
    const res = await api.post('/pdf/redact', { text: 'Petrov' }, [{ content: pdf }]);
    expect(report(res)).toMatchObject({ matches: 1 });
    const file = saveBody(res.rawPayload);
    const raw = rawObjects(file);
    expect(raw).not.toMatch(/Petrov|ActualText/);
    expect(raw).not.toMatch(written('Petrov'));
    expect(raw).toMatch(/\/MCID 0/);
    expect(raw).toMatch(written('Kept description'));
    expect(lineOf(text(file, 1), 'Pay')).toMatch(/^Pay \(net\) to Ivan$/);
  });

  it('a page whose font is inherited from the page tree (Times, measured by its AFM): the rest of the line stays', async () => {
    const pdf = await inheritedResourcesPdf();
    expect(lineOf(text(pdf, 1), 'Reference')).toBe(inheritedLine);
    const res = await api.post('/pdf/redact', { text: 'WXYZ-42' }, [{ content: pdf }]);
    expect(report(res)).toMatchObject({ matches: 1, glyphs: 7 });
    expect(lineOf(text(saveBody(res.rawPayload), 1), 'Reference')).toMatch(/^Reference\s+belongs to Quentin Marsh\.$/);
  });

  it('text out of reach of the rewrite (forms nested past 8 deep) is refused, never answered only covered', async () => {
    const reached = await api.post('/pdf/redact', { text: 'secret' }, [{ content: await nestedFormsPdf(7) }]);
    expect(reached.statusCode, reached.body.slice(0, 300)).toBe(200);
    expect(lineOf(text(saveBody(reached.rawPayload), 1), 'Deep')).toMatch(/^Deep\s+line$/);

    const pdf = await nestedFormsPdf(10);
    expect(lineOf(text(pdf, 1), 'Deep')).toBe('Deep secret line');
    const res = await api.post('/pdf/redact', { text: 'secret' }, [{ content: pdf }]);
    expect(errorOf(res)).toMatchObject({ status: 422, code: 'DOCUMENT_TOO_COMPLEX' });
    expect(errorOf(res).error).toMatch(/^text: matches on page 1 could not be taken out/);
  });

  it('a page shown turned: text found and areas given as the page is shown', async () => {
    const pdf = await rotatedPdf();
    expect(lineOf(text(pdf, 1), 'here')).toBe(rotatedLine);
    // Shown a quarter turn clockwise, the page is 842 × 595 and its x 48-90 pt ("Rotated") is shown at y 505-547.
    const res = await api.post('/pdf/redact', { text: 'secret', areas: '1:690,505,25,42' }, [{ content: pdf }]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(report(res)).toMatchObject({ matches: 1, pages: [{ page: 1, matches: 1, areas: 1 }] });
    const line = lineOf(text(saveBody(res.rawPayload), 1), 'here');
    expect(line).toMatch(/^here, more after\.$/);
  });

  it('area: no text inside it, image pixels under it in the fill colour (PNG and JPEG), the annotation in it removed', async () => {
    const png = layout.png;
    const jpeg = layout.jpeg;
    // The left half of the PNG image, and a band across the JPEG image and the first line of text.
    const areas = [
      `2:${png.x},${png.y},${png.width / 2},${png.height}`,
      `2:40,${jpeg.y + 40},500,40`,
      `2:${layout.link.x},${layout.link.y},${layout.link.width},${layout.link.height}`,
      // "Second" spans 50-90.7 pt and the space after it to 94: the area takes the word and leaves "page".
      '2:40,755,52,20',
    ].join(';');
    const before = await redactionPdf();
    const res = await api.post('/pdf/redact', { areas, color: '#ff0000' }, [{ content: before }]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(report(res)).toMatchObject({
      matches: 0,
      pages: [{ page: 2, matches: 0, areas: 4 }],
      imagesPainted: 2,
      imagesRemoved: 0,
      annotationsRemoved: 1,
    });
    const file = saveBody(res.rawPayload);
    expect(text(before, 2, { x: 40, y: 755, width: 52, height: 20 })).toMatch(/Second/);
    expect(text(file, 2, { x: 40, y: 755, width: 52, height: 20 }).trim()).toBe('');
    expect(lineOf(text(file, 2), 'mentions')).toBe('page mentions John Smith too.');
    // The band over the JPEG image leaves no text either (there was none), and the image's text-free neighbours stay.
    expect(text(file, 2, { x: 40, y: jpeg.y + 40, width: 500, height: 40 }).trim()).toBe('');

    const [pngOut, jpegOut] = await imagesOf(file, 2);
    // The PNG (100 px over 200 pt): left half red, right half still grey.
    expect(pngOut!.at(10, 50)).toEqual([255, 0, 0]);
    expect(pngOut!.at(45, 90)).toEqual([255, 0, 0]);
    expect(pngOut!.at(60, 50)).toEqual([128, 128, 128]);
    // The JPEG (80 px over 160 pt): the band 40-80 pt up from its bottom is rows 40-60 from its top, red (JPEG-near).
    const near = (got: number[], want: number[]) =>
      got.forEach((v, k) => expect(Math.abs(v - want[k]!)).toBeLessThan(24));
    near(jpegOut!.at(40, 50), [255, 0, 0]);
    near(jpegOut!.at(40, 10), [255, 255, 255]);

    const doc = await PDFDocument.load(readFileSync(file));
    const annots = doc.getPage(1).node.lookup(PDFName.of('Annots'));
    expect(annots instanceof PDFArray ? annots.size() : 0).toBe(0);
  });

  it('a form field in an area is removed from the page and the form, its value with it', async () => {
    // The fixture's text field "name" (value "Ada Lovelace") is at 50,700 300 × 30; the checkbox "ok" at 50,650.
    const pdf = await formPdf();
    expect(rawObjects(pdf)).toMatch(written('Ada Lovelace'));
    const res = await api.post('/pdf/redact', { areas: '1:40,690,320,50' }, [{ content: pdf }]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(report(res)).toMatchObject({ annotationsRemoved: 1 });
    const file = saveBody(res.rawPayload);
    const doc = await PDFDocument.load(readFileSync(file));
    expect(
      doc
        .getForm()
        .getFields()
        .map((f) => f.getName()),
    ).toEqual(['ok']);
    expect(rawObjects(file)).not.toMatch(written('Ada Lovelace'));
  });

  it('a label over the fill, and scrub: metadata, attachment and JavaScript gone', async () => {
    const res = await api.post('/pdf/redact', { text: 'hunter2', label: 'REDACTED', scrub: true }, [
      { content: await redactionPdf() },
    ]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(report(res)).toMatchObject({
      matches: 1,
      scrubbed: { metadata: true, attachments: true, javascript: true },
    });
    const file = saveBody(res.rawPayload);
    const p1 = text(file, 1);
    expect(p1).not.toContain('hunter2');
    expect(lineOf(p1, 'password')).toMatch(/^The password is\s+REDACTED\s+and nothing else\.$/);
    const info = execFileSync('pdfinfo', [file]).toString('utf8');
    expect(info).not.toMatch(/Secret merger|Jane Insider/);
    const doc = await PDFDocument.load(readFileSync(file));
    expect(doc.catalog.lookup(PDFName.of('OpenAction'))).toBeUndefined();
    expect(execFileSync('pdfdetach', ['-list', file]).toString('utf8')).toMatch(/^0 embedded files/);
    const raw = rawObjects(file);
    expect(raw).not.toMatch(/the real numbers|app\.alert|Jane Insider/);
    expect(raw).not.toMatch(written('hunter2'));
  });

  it('scrub alone removes what a layer hidden by default draws, and keeps what is shown', async () => {
    const pdf = await hiddenLayerPdf();
    const drawn = async (file: string) => {
      const doc = await PDFDocument.load(readFileSync(file));
      const contents = doc.getPage(0).node.Contents();
      const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
      return streams
        .filter((s): s is PDFRawStream => s instanceof PDFRawStream)
        .map((s) => Buffer.from(decodePDFRawStream(s).decode()).toString('latin1'))
        .join('\n');
    };
    const hex = (t: string) => Buffer.from(t, 'latin1').toString('hex');
    expect(await drawn(pdf)).toContain(hex(layerText.hidden));
    const res = await api.post('/pdf/redact', { scrub: true }, [{ content: pdf }]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(report(res)).toMatchObject({ matches: 0, hiddenContent: 1, scrubbed: { hiddenLayers: 1 } });
    const file = saveBody(res.rawPayload);
    expect(await drawn(file)).not.toContain(hex(layerText.hidden));
    expect(text(file, 1)).toContain(layerText.shown);
  });

  it('ocr: a scanned page is read, the match painted out of the image itself', async () => {
    const pdf = await scannedPdf(
      await textImage({ lines: ['Patient Maria Lopez was admitted.', 'Ward seven, bed twelve.'] }),
    );
    const plain = await api.post('/pdf/redact', { text: 'Lopez' }, [{ content: pdf }]);
    expect(report(plain)).toMatchObject({ matches: 0 });

    const res = await api.post('/pdf/redact', { text: 'Lopez', ocr: true }, [{ content: pdf }]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(report(res)).toMatchObject({ matches: 1, ocrPages: 1, imagesPainted: 1, pages: [{ page: 1, matches: 1 }] });
    // Read back by an OCR pass of our own over the extracted image: the name is gone, the words around it stay.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-redact-ocr-'));
    chmodSync(dir, 0o755);
    execFileSync('pdfimages', ['-png', saveBody(res.rawPayload), path.join(dir, 'i')]);
    const read = execFileSync('tesseract', [path.join(dir, readdirSync(dir)[0]!), 'stdout'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    }).toString('utf8');
    expect(read).toMatch(/Patient Maria/);
    expect(read).toMatch(/was admitted/);
    expect(read).not.toMatch(/Lopez/i);
  });

  it('nothing matches: 200 with zero matches and the text unchanged', async () => {
    const res = await api.post('/pdf/redact', { text: 'no such words' }, [{ content: await redactionPdf() }]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(report(res)).toMatchObject({ matches: 0, pages: [], glyphs: 0 });
    expect(text(saveBody(res.rawPayload), 1)).toContain(lines.p1[0]);
  });

  it('a pipeline stage with no further edit', async () => {
    const stages = JSON.stringify([
      { op: '/pdf/redact', text: 'Smith' },
      { op: '/pdf/rotate', angle: 90 },
    ]);
    const res = await api.post('/pipeline', { stages }, [{ content: await redactionPdf() }]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const file = saveBody(res.rawPayload);
    expect(text(file, 1) + text(file, 2)).not.toContain('Smith');
  });

  it('bad input: a regex that backtracks for ever, an area off the page, neither text nor areas, an encrypted PDF', async () => {
    const pdf = await redactionPdf();
    const slow = await api.post('/pdf/redact', { text: '(\\w+\\s?)+$', regex: true }, [{ content: pdf }]);
    expect(slow.statusCode).toBe(422);
    expect(slow.json()).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'text' } });
    expect(errorOf(slow).error).toMatch(/^text: .*too long/);

    const broken = await api.post('/pdf/redact', { text: '(unclosed', regex: true }, [{ content: pdf }]);
    expect(broken.statusCode).toBe(422);
    expect(errorOf(broken).error).toMatch(/^text: not a valid regular expression/);

    const off = await api.post('/pdf/redact', { areas: '1:500,800,200,100' }, [{ content: pdf }]);
    expect(off.statusCode).toBe(422);
    expect(off.json()).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'areas', page: 1 } });
    const noPage = await api.post('/pdf/redact', { areas: '9:0,0,10,10' }, [{ content: pdf }]);
    expect(noPage.statusCode).toBe(422);
    expect(errorOf(noPage).error).toMatch(/^areas: page 9 does not exist/);
    const garbled = await api.post('/pdf/redact', { areas: '1:0,0,ten,10' }, [{ content: pdf }]);
    expect(garbled.statusCode).toBe(422);

    const undecodable = await api.post('/pdf/redact', { areas: '1:0,0,100,100' }, [
      { content: await undecodablePdf() },
    ]);
    expect(errorOf(undecodable)).toMatchObject({ status: 422, code: 'INVALID_PDF' });
    expect(errorOf(undecodable).error).toMatch(
      /^file: the drawing instructions of page 1 cannot be read .*nothing was redacted/,
    );

    const nothing = await api.post('/pdf/redact', {}, [{ content: pdf }]);
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json()).toMatchObject({ details: { field: 'text' } });

    const locked = await api.post('/pdf/redact', { text: 'Secret' }, [{ content: await encryptedPdf('user') }]);
    expect(errorOf(locked)).toMatchObject({ status: 422, code: 'PASSWORD_REQUIRED' });
    const opened = await api.post('/pdf/redact', { text: 'Secret', password: 'open-sesame' }, [
      { content: await encryptedPdf('user') },
    ]);
    expect(opened.statusCode, opened.body.slice(0, 300)).toBe(200);
    expect(text(saveBody(opened.rawPayload), 1)).not.toContain('Secret');
  });
});
