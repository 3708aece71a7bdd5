import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, processingApp } from '../../fixtures/api';
import {
  cropPdf,
  encryptedPdf,
  pageCount,
  pagesText,
  run,
  truncatedPdf,
  pageBoxesOf as boxesOf,
  type PageBoxes,
} from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';

/**
 * POST /pdf/crop: page boxes read back with pdf-lib (MediaBox and CropBox), text with pdftotext. The fixture's page 1
 * holds a 2 pt black frame at (150, 300) 200 × 100 pt with text inside; page 2 is empty; page 3 is landscape; page 4
 * is page 1 shown a quarter turn clockwise.
 */
let api: Awaited<ReturnType<typeof processingApp>>;
beforeAll(async () => {
  api = await processingApp();
});
afterAll(() => api.t.close());

type Box = PageBoxes['media'];
const close = (got: Box, want: Box, within: number) => {
  for (const k of ['x', 'y', 'width', 'height'] as const)
    expect(Math.abs(got[k] - want[k]), `${k}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`).toBeLessThanOrEqual(
      within,
    );
};
const A4 = { x: 0, y: 0, width: 595, height: 842 };

async function crop(fields: Record<string, string | number>) {
  const res = await api.post('/pdf/crop', fields, [{ content: await cropPdf() }]);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  const file = saveBody(res.rawPayload);
  return { res, file, boxes: await boxesOf(file), text: pagesText(file) };
}

describe('POST /pdf/crop', () => {
  it('200 mode=box: MediaBox and CropBox of the pages asked become the box; the other pages and the text stay', async () => {
    const { boxes, text, file } = await crop({ box: '100, 250, 300, 200', pages: '1,3' });
    expect(pageCount(file)).toBe(4);
    close(boxes[0]!.media, { x: 100, y: 250, width: 300, height: 200 }, 0.01);
    close(boxes[0]!.crop, { x: 100, y: 250, width: 300, height: 200 }, 0.01);
    close(boxes[1]!.crop, A4, 0);
    close(boxes[2]!.crop, { x: 100, y: 250, width: 300, height: 200 }, 0.01);
    close(boxes[3]!.crop, A4, 0);
    expect(text[0]).toContain('Framed text one');
    // The box cuts the landscape line at x = 400: what lies outside is no longer shown, nor read.
    expect(text[2]).toMatch(/^Landscape te/);
  });

  it('200 mode=box in millimetres, on a page shown turned: the box is read as the page is shown', async () => {
    const mm = 72 / 25.4;
    const { boxes } = await crop({ mode: 'box', box: '10,20,100,50', unit: 'mm', pages: '1,4' });
    close(boxes[0]!.crop, { x: 10 * mm, y: 20 * mm, width: 100 * mm, height: 50 * mm }, 0.01);
    // Shown a quarter turn clockwise, the page's x runs down the screen and its y along it: the displayed
    // rectangle (10, 20)-(110, 70) mm is x from 595 - 70 mm to 595 - 20 mm, y from 10 to 110 mm on the page itself.
    close(boxes[3]!.crop, { x: 595 - 70 * mm, y: 10 * mm, width: 50 * mm, height: 100 * mm }, 0.01);
  });

  it('200 mode=content: cropped to the drawing plus the margin, turned pages too; an empty page keeps its box', async () => {
    // A form sends every field: those of another mode are ignored once the mode is named.
    const { boxes, text } = await crop({ mode: 'content', margin: 10, size: 'A4' });
    // The frame's outer edge is 149-351 × 299-401 (a 2 pt stroke on the 150-350 × 300-400 path).
    const framed = { x: 139, y: 289, width: 222, height: 122 };
    close(boxes[0]!.media, framed, 2);
    close(boxes[0]!.crop, framed, 2);
    close(boxes[1]!.crop, A4, 0);
    expect(boxes[2]!.crop.width).toBeLessThan(200);
    expect(boxes[2]!.crop.height).toBeLessThan(50);
    close(boxes[3]!.crop, framed, 2);
    expect(text[0]).toContain('Framed text one');
    expect(text[2]).toContain('Landscape text');
    expect(text[3]).toContain('Framed text four');
  });

  it('200 mode=scale: onto Letter, landscape pages on landscape paper, centred, the text still text', async () => {
    const { boxes, text, file } = await crop({ size: 'Letter' });
    for (const i of [0, 1, 3]) expect(boxes[i]!.crop).toMatchObject({ width: 612, height: 792 });
    expect(boxes[2]!.crop).toMatchObject({ width: 792, height: 612 });
    expect(boxes[0]!.media).toEqual(boxes[0]!.crop);
    expect(text[0]).toContain('Framed text one');
    // A4 onto Letter: scaled by 792/842 and centred across, so the word at x = 160 lands at 160 s + (612 - 595 s) / 2.
    const s = 792 / 842;
    const words = run('pdftotext', ['-bbox', '-f', '1', '-l', '1', file, '-']);
    const xMin = Number(/xMin="([\d.]+)"[^>]*>Framed</.exec(words)![1]);
    expect(Math.abs(xMin - (160 * s + (612 - 595 * s) / 2))).toBeLessThan(1.5);
  });

  it('200 with the password of an encrypted PDF', async () => {
    const res = await api.post('/pdf/crop', { box: '0,0,300,300', password: 'open-sesame' }, [
      { content: await encryptedPdf('user') },
    ]);
    expect(res.statusCode).toBe(200);
    close((await boxesOf(saveBody(res.rawPayload)))[0]!.crop, { x: 0, y: 0, width: 300, height: 300 }, 0.01);
  });

  it('422: missing, malformed or oversized box, unknown size, bad pages', async () => {
    const src = await cropPdf();
    const error = async (fields: Record<string, string | number>) =>
      errorOf(await api.post('/pdf/crop', fields, [{ content: src }]));
    expect(await error({ mode: 'box' })).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect((await error({ mode: 'box' })).error).toMatch(/^box: mode=box needs/);
    expect((await error({ box: '1,2,3' })).error).toMatch(/^box: must be "x,y,width,height"/);
    expect((await error({ box: '0,0,0,10' })).error).toMatch(/^box: width and height must be greater than 0/);
    expect((await error({ box: '0,0,600,100' })).error).toMatch(
      /^box: "0,0,600,100" pt goes past page 1, which is 595 × 842 pt/,
    );
    expect((await error({ box: '0,0,300,300', unit: 'cm' })).error).toMatch(/^unit: /);
    const size = await error({ size: 'B5' });
    expect(size).toMatchObject({ status: 422 });
    expect(size.error).toMatch(/^size: .*"Letter"/);
    expect((await error({ mode: 'scale' })).error).toMatch(/^size: mode=scale needs a paper size \(valid: A3, A4/);
    expect((await error({ size: 'A4', pages: '9' })).error).toMatch(/^pages: /);
  });

  it('422: a damaged PDF, an encrypted one without its password', async () => {
    const damaged = errorOf(await api.post('/pdf/crop', { size: 'A4' }, [{ content: await truncatedPdf('objstm') }]));
    expect(damaged).toMatchObject({ status: 422, code: 'INVALID_PDF' });
    const locked = errorOf(await api.post('/pdf/crop', { size: 'A4' }, [{ content: await encryptedPdf('user') }]));
    expect(locked).toMatchObject({ status: 422, code: 'PASSWORD_REQUIRED' });
  });
});
