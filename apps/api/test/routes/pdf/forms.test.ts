import { execFileSync } from 'node:child_process';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, processingApp } from '../../fixtures/api';
import { fillableFormPdf, formRects, qpdfFormValues } from '../../fixtures/forms';
import { numberedPdf, pagesText } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';

/**
 * POST /pdf/forms/fields and /pdf/forms/fill on a form the fixture builds with pdf-lib (text fields, a checkbox, a
 * radio group, a dropdown, a read-only field, a signature field over two pages). Results are read back with tools
 * nobody here wrote: qpdf's JSON of the AcroForm (the /V values), poppler's pdftotext (values on the page) and
 * pdftoppm (the glyphs drawn).
 */
let api: Awaited<ReturnType<typeof processingApp>>;
beforeAll(async () => {
  api = await processingApp();
});
afterAll(() => api.t.close());

/** Share of dark pixels inside a field's rectangle (inset past its border) on page 1 rendered at 72 dpi. */
async function inkInside(file: string, r: { x: number; y: number; width: number; height: number }) {
  const prefix = saveBody(Buffer.alloc(0), 'png').replace(/\.png$/, '');
  execFileSync('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', '-singlefile', '-gray', '-png', file, prefix]);
  const inset = 3;
  const { data, info } = await sharp(`${prefix}.png`)
    .extract({
      left: Math.round(r.x + inset),
      top: Math.round(842 - r.y - r.height + inset),
      width: Math.round(r.width - 2 * inset),
      height: Math.round(r.height - 2 * inset),
    })
    .raw()
    .toBuffer({ resolveWithObject: true });
  let dark = 0;
  for (const v of data) if (v < 128) dark++;
  return dark / (info.width * info.height);
}

const values = {
  name: 'Zoë Ångström',
  city: '東京都 渋谷区',
  agree: true,
  color: 'blue',
  country: 'Japan',
  'person.email': 'zoe@example.com',
};

describe('POST /pdf/forms/fields', () => {
  it('200: every field with its type, value, options, flags, page and rectangle', async () => {
    const res = await api.post('/pdf/forms/fields', {}, [{ content: await fillableFormPdf() }]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const { count, fields } = res.json().data as {
      count: number;
      fields: Array<Record<string, unknown> & { name: string }>;
    };
    expect(count).toBe(8);
    const by = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(Object.keys(by).sort()).toEqual(
      ['agree', 'city', 'color', 'country', 'name', 'person.email', 'ref', 'signature'].sort(),
    );
    expect(by.name).toMatchObject({
      type: 'text',
      value: null,
      options: [],
      required: true,
      readOnly: false,
      multiline: false,
      page: 1,
      rect: formRects.name,
    });
    expect(by.city).toMatchObject({ type: 'text', required: false, page: 1, rect: formRects.city });
    expect(by.agree).toMatchObject({ type: 'checkbox', value: null, options: ['Yes'], page: 1, rect: formRects.agree });
    expect(by.color).toMatchObject({
      type: 'radio',
      value: null,
      options: ['red', 'blue'],
      page: 1,
      rect: formRects.red,
      widgets: [
        { page: 1, rect: formRects.red },
        { page: 1, rect: formRects.blue },
      ],
    });
    expect(by.country).toMatchObject({
      type: 'choice',
      value: null,
      options: ['France', 'Japan', 'Brazil'],
      multiSelect: false,
      editable: false,
      page: 1,
      rect: formRects.country,
    });
    expect(by['person.email']).toMatchObject({ type: 'text', page: 1, rect: formRects.email });
    expect(by.ref).toMatchObject({ type: 'text', value: 'R-1', readOnly: true, page: 2, rect: formRects.ref });
    expect(by.signature).toMatchObject({
      type: 'signature',
      value: null,
      required: false,
      readOnly: false,
      page: 2,
      rect: formRects.signature,
    });
  });

  it('422 NO_FORM_FIELDS for a PDF without a form', async () => {
    const res = await api.post('/pdf/forms/fields', {}, [{ content: await numberedPdf(1) }]);
    expect(errorOf(res)).toMatchObject({ status: 422, code: 'NO_FORM_FIELDS' });
  });
});

describe('POST /pdf/forms/fill', () => {
  it('200: qpdf reads every value, pdftotext finds them on the page, the CJK glyphs are drawn', async () => {
    const res = await api.post('/pdf/forms/fill', { values: JSON.stringify(values) }, [
      { content: await fillableFormPdf(), filename: 'signup.pdf' },
    ]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-disposition']).toContain('signup-filled.pdf');
    const file = saveBody(res.rawPayload);
    const { fields } = qpdfFormValues(file);
    expect(fields).toMatchObject({
      name: 'u:Zoë Ångström',
      city: 'u:東京都 渋谷区',
      agree: '/Yes',
      // pdf-lib's radio buttons are named by index, their export values in the group's /Opt: "blue" is the second.
      color: '/1',
      country: 'u:Japan',
      'person.email': 'u:zoe@example.com',
      ref: 'u:R-1',
    });
    const [page1, page2] = pagesText(file);
    for (const v of ['Zoë Ångström', '東京都 渋谷区', 'Japan', 'zoe@example.com']) expect(page1).toContain(v);
    expect(page2).toContain('R-1');
    const listed = await api.post('/pdf/forms/fields', {}, [{ content: file }]);
    const byName = Object.fromEntries(
      (listed.json().data.fields as Array<{ name: string; value: unknown }>).map((f) => [f.name, f.value]),
    );
    expect(byName).toMatchObject({ ...values, agree: 'Yes', signature: null });
    // Drawn, not only extractable: the subset of the CJK face renders (an empty field has no ink inside its border).
    expect(await inkInside(file, formRects.city)).toBeGreaterThan(0.02);
    expect(await inkInside(await fillableFormPdf(), formRects.city)).toBe(0);
  });

  it('200 flattened: no field left (qpdf), the values still on the page (pdftotext)', async () => {
    const res = await api.post('/pdf/forms/fill', { values: JSON.stringify(values), flatten: true }, [
      { content: await fillableFormPdf() },
    ]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const file = saveBody(res.rawPayload);
    expect(qpdfFormValues(file).fields).toEqual({});
    const [page1] = pagesText(file);
    for (const v of ['Zoë Ångström', '東京都 渋谷区', 'Japan']) expect(page1).toContain(v);
  });

  it('a checkbox unchecked by "Off", a radio cleared by null, a field left out keeps its value', async () => {
    const first = await api.post('/pdf/forms/fill', { values: JSON.stringify(values) }, [
      { content: await fillableFormPdf() },
    ]);
    const filled = saveBody(first.rawPayload);
    const res = await api.post('/pdf/forms/fill', { values: JSON.stringify({ agree: 'Off', color: null }) }, [
      { content: filled, filename: path.basename(filled) },
    ]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const { fields } = qpdfFormValues(saveBody(res.rawPayload));
    expect(fields.agree).toBe('/Off');
    expect(fields.color).toBe('/Off');
    expect(fields.name).toBe('u:Zoë Ångström');
    // A spreadsheet's words for a ticked box (a CSV cell is text).
    const ticked = await api.post('/pdf/forms/fill', { values: JSON.stringify({ agree: 'X' }) }, [
      { content: await fillableFormPdf() },
    ]);
    expect(qpdfFormValues(saveBody(ticked.rawPayload)).fields.agree).toBe('/Yes');
  });

  it('a pipeline stage: a fill, flattened, then page numbers', async () => {
    const stages = JSON.stringify([
      { op: '/pdf/forms/fill', values: JSON.stringify({ name: 'Piped Person' }), flatten: true },
      { op: '/pdf/page-numbers', format: 'Folio {n}' },
    ]);
    const res = await api.post('/pipeline', { stages }, [{ content: await fillableFormPdf() }]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const file = saveBody(res.rawPayload);
    expect(pagesText(file)[0]).toContain('Piped Person');
    expect(pagesText(file)[0]).toContain('Folio 1');
    expect(qpdfFormValues(file).fields).toEqual({});
  });

  it('422 naming every unknown field, with the fields the form has', async () => {
    const res = await api.post('/pdf/forms/fill', { values: JSON.stringify({ nmae: 'x', name: 'ok', cty: 'y' }) }, [
      { content: await fillableFormPdf() },
    ]);
    expect(errorOf(res)).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(errorOf(res).error).toMatch(/^values: this form has no field named "nmae", "cty"/);
    expect(res.json().details).toMatchObject({ field: 'values', unknown: ['nmae', 'cty'] });
    expect(res.json().details.fields).toContain('person.email');
  });

  it('422 NO_FORM_FIELDS for a PDF without a form', async () => {
    const res = await api.post('/pdf/forms/fill', { values: '{"name":"x"}' }, [{ content: await numberedPdf(1) }]);
    expect(errorOf(res)).toMatchObject({ status: 422, code: 'NO_FORM_FIELDS' });
  });

  it('422 naming the field and its valid values for a value it cannot take', async () => {
    const cases: Array<[object, RegExp]> = [
      [{ color: 'green' }, /^values\.color: .*\(valid: "red", "blue"\)/],
      [{ agree: 'maybe' }, /^values\.agree: .*\(valid: "Yes", "Off"\)/],
      [{ country: 'Peru' }, /^values\.country: "Peru" is not a choice/],
      [{ signature: 'x' }, /^values\.signature: a signature field is signed, not filled/],
      [{ name: 'مرحبا' }, /^values\.name: the character "م" \(U\+0645\) cannot be drawn/],
    ];
    for (const [v, message] of cases) {
      const res = await api.post('/pdf/forms/fill', { values: JSON.stringify(v) }, [
        { content: await fillableFormPdf() },
      ]);
      expect(errorOf(res).status, JSON.stringify(v)).toBe(422);
      expect(errorOf(res).error).toMatch(message);
    }
    const notJson = await api.post('/pdf/forms/fill', { values: '{name:' }, [{ content: await fillableFormPdf() }]);
    expect(errorOf(notJson).error).toMatch(/^values: must be JSON/);
  });
});
