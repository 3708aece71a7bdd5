import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, processingApp } from '../../fixtures/api';
import { cropPdf, pageCount, pagesText, pageBoxesOf as boxesOf, type PageBoxes } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';

/**
 * POST /pdf/add-margins (added in four source files: its schema and catalogue line in the contracts, its core
 * operation, its step), reached from v1 and the pipeline with no other edit. Boxes read back with pdf-lib, text with
 * pdftotext. The fixture's pages: 1 A4 with framed text, 2 empty, 3 landscape, 4 page 1 shown a quarter turn.
 */
let api: Awaited<ReturnType<typeof processingApp>>;
beforeAll(async () => {
  api = await processingApp();
});
afterAll(() => api.t.close());

type Box = PageBoxes['media'];
const close = (got: Box, want: Box) => {
  for (const k of ['x', 'y', 'width', 'height'] as const)
    expect(Math.abs(got[k] - want[k]), `${k}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`).toBeLessThan(0.01);
};

describe('POST /pdf/add-margins', () => {
  it('200: the pages asked grow by the margin on every side, a side given alone wins; text and pages stay', async () => {
    const res = await api.post('/pdf/add-margins', { margin: 20, left: 50, pages: '1,2' }, [
      { content: await cropPdf() },
    ]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const file = saveBody(res.rawPayload);
    const boxes = await boxesOf(file);
    expect(pageCount(file)).toBe(4);
    close(boxes[0]!.media, { x: -50, y: -20, width: 595 + 70, height: 842 + 40 });
    close(boxes[0]!.crop, { x: -50, y: -20, width: 595 + 70, height: 842 + 40 });
    close(boxes[1]!.crop, { x: -50, y: -20, width: 595 + 70, height: 842 + 40 });
    close(boxes[2]!.crop, { x: 0, y: 0, width: 842, height: 595 });
    expect(pagesText(file)[0]).toContain('Framed text one');
  });

  it('200 in millimetres on a page shown turned: the margins go to the sides as the page is shown', async () => {
    const mm = 72 / 25.4;
    const res = await api.post('/pdf/add-margins', { margin: 0, top: 10, unit: 'mm', pages: '4' }, [
      { content: await cropPdf() },
    ]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const boxes = await boxesOf(saveBody(res.rawPayload));
    // Turned a quarter clockwise, the top of the page as shown is the page's own left-hand side.
    close(boxes[3]!.crop, { x: -10 * mm, y: 0, width: 595 + 10 * mm, height: 842 });
  });

  it('a pipeline stage with no further edit: a conversion, then margins', async () => {
    const stages = JSON.stringify([{ op: '/pdf/add-margins', margin: 1, unit: 'in' }]);
    const res = await api.post('/pipeline', { stages }, [{ content: await cropPdf() }]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    close((await boxesOf(saveBody(res.rawPayload)))[0]!.crop, { x: -72, y: -72, width: 595 + 144, height: 842 + 144 });
  });

  it('422 naming the field for a negative margin, and when the page would pass what a PDF page may measure', async () => {
    const neg = await api.post('/pdf/add-margins', { margin: -1 }, [{ content: await cropPdf() }]);
    expect(neg.statusCode).toBe(422);
    expect(errorOf(neg).error).toMatch(/^margin: /);
    const huge = await api.post('/pdf/add-margins', { margin: 1000, unit: 'in' }, [{ content: await cropPdf() }]);
    expect(huge.statusCode).toBe(422);
    expect(huge.json()).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'margin', page: 1 } });
  });
});
