import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '@/i18n';
import { catalogueEntry, endpointCatalogue, findCatalogueEntry, stampPositions } from '@docflow/contracts';
import { findEndpoint, playgroundEndpoints, type PlaygroundEndpoint } from '../../config/endpoints';
import { boundsOf } from '../schema-bounds';
import { initialValues, isFileField, planCall, validateFields, validationMessages } from '../request-plan';

const ep = (id: string): PlaygroundEndpoint => {
  const found = findEndpoint(id);
  if (!found) throw new Error(`no endpoint ${id}`);
  return found;
};
const pdf = (name = 'a.pdf') => new File(['%PDF-1.4'], name, { type: 'application/pdf' });
const apiBase = 'https://docflow.test/api/v1';

describe('the endpoint definitions', () => {
  it('are every processing endpoint of the catalogue: the spec’s nine, the screenshots and the pipeline first', () => {
    const curated = [
      '/pdf/watermark',
      '/pdf/merge',
      '/pdf/extract-text',
      '/pdf/crop',
      '/pdf/remove-blank-pages',
      '/qrcode/url',
      '/qrcode/contact',
      '/ocr/extract',
      '/conversion/auto-to-pdf',
      '/conversion/batch-to-pdf',
      '/conversion/url-to-image',
      '/conversion/html-to-image',
      '/pipeline',
      '/conversion/image-to-pdf',
    ];
    const ids = playgroundEndpoints.map((e) => e.id);
    expect(ids.slice(0, curated.length)).toEqual(curated);
    const posts = endpointCatalogue.filter((e) => e.method === 'POST').map((e) => e.path);
    expect([...ids].sort()).toEqual([...posts].sort());
    for (const e of playgroundEndpoints) {
      expect(['PDF', 'QR Codes', 'OCR', 'Conversion']).toContain(e.category);
      expect(e.method).toBe('POST');
      expect(e.contentType).toBe(
        catalogueEntry(e.id as Parameters<typeof catalogueEntry>[0]).body === 'json'
          ? 'application/json'
          : 'multipart/form-data',
      );
    }
  });

  it('lists the spec’s fields per endpoint', () => {
    const names = (id: string) => ep(id).fields.map((f) => f.name);
    expect(names('/pdf/watermark')).toEqual([
      'file',
      'text',
      'position',
      'opacity',
      'fontSize',
      'color',
      'rotation',
      'repeat',
      'spacingX',
      'spacingY',
    ]);
    expect(names('/pdf/extract-text')).toEqual(['file', 'pageRange']);
    expect(names('/qrcode/url')).toEqual(['url', 'size', 'color', 'background']);
    expect(names('/qrcode/contact')).toEqual(['firstName', 'lastName', 'phone', 'email', 'company', 'size']);
    expect(names('/ocr/extract')).toEqual(['file', 'languages', 'preprocessImage', 'includeWordDetails']);
    expect(names('/conversion/url-to-image')).toEqual(['url', 'format', 'width', 'height', 'clip', 'quality']);
    expect(names('/conversion/html-to-image')).toEqual(['files', 'format', 'width', 'height', 'clip', 'quality']);
  });

  it('only uses fields the server’s contracts schema knows', () => {
    for (const e of playgroundEndpoints) {
      for (const f of e.fields.filter((x) => !isFileField(x)))
        expect(() => boundsOf(e.schema, f.name), `${e.id} ${f.name}`).not.toThrow();
    }
  });

  it('takes limits, defaults and options from the contracts', () => {
    const wm = ep('/pdf/watermark');
    const field = (name: string) => wm.fields.find((f) => f.name === name)!;
    expect(field('position').options).toEqual([...stampPositions]);
    expect(field('position').default).toBe('diagonal');
    expect(field('opacity')).toMatchObject({ min: 0, max: 1, default: 0.3 });
    expect(field('color').default).toBe('#808080');
    expect(ep('/qrcode/url').fields.find((f) => f.name === 'size')).toMatchObject({
      min: 64,
      max: 2048,
      step: 1,
      default: 256,
    });
    expect(ep('/conversion/image-to-pdf').fields.find((f) => f.name === 'pageSize')!.options).toEqual([
      'A4',
      'letter',
      'fit',
    ]);
  });

  it('states the file counts the API takes: merge 2-20 PDFs, batch as many files as the route accepts', () => {
    expect(ep('/pdf/merge').fields[0]).toMatchObject({ type: 'files', min: 2, max: 20 });
    expect(ep('/pdf/merge').hint).toBe('Merge takes 2 to 20 PDFs.');
    const batch = catalogueEntry('/conversion/batch-to-pdf').files!;
    expect(ep('/conversion/batch-to-pdf').fields[0]).toMatchObject({
      name: batch.field,
      type: 'files',
      min: batch.min,
      max: batch.max,
    });
    expect(ep('/conversion/batch-to-pdf').hint).toContain(`takes ${batch.min} to ${batch.max} files`);
    expect(ep('/pdf/watermark').fields[0]).toMatchObject({ name: 'file', type: 'file', required: true });
  });

  it('takes path, group, body type and schema from the endpoint catalogue', () => {
    for (const e of playgroundEndpoints) {
      const entry = findCatalogueEntry(e.id, 'POST');
      expect(entry, e.id).toBeDefined();
      expect(e.schema).toBe(entry!.fields);
      expect(e.contentType).toBe(entry!.body === 'json' ? 'application/json' : 'multipart/form-data');
    }
  });
});

describe('initialValues', () => {
  it('applies defaults, leaves the rest empty and checkboxes off', () => {
    expect(initialValues(ep('/pdf/watermark'))).toEqual({
      text: 'CONFIDENTIAL',
      position: 'diagonal',
      opacity: '0.3',
      fontSize: '48',
      color: '#808080',
      rotation: '',
      repeat: false,
      spacingX: '100',
      spacingY: '100',
    });
  });
});

describe('validateFields', () => {
  const wm = ep('/pdf/watermark');

  it('requires the required fields and files', () => {
    const errors = validateFields(wm, { ...initialValues(wm), text: '  ' }, {});
    expect(errors).toEqual({ file: validationMessages.required, text: validationMessages.required });
  });

  it('checks number min, max and step', () => {
    const base = initialValues(wm);
    const files = { file: [pdf()] };
    expect(validateFields(wm, { ...base, opacity: '1.5' }, files)).toEqual({ opacity: validationMessages.max(1) });
    expect(validateFields(wm, { ...base, opacity: '-0.1' }, files)).toEqual({ opacity: validationMessages.min(0) });
    expect(validateFields(wm, { ...base, opacity: '0.33' }, files)).toEqual({ opacity: validationMessages.step(0.05) });
    expect(validateFields(wm, { ...base, opacity: '0.35' }, files)).toEqual({});
    expect(validateFields(wm, { ...base, rotation: 'abc' }, files)).toEqual({ rotation: validationMessages.number });
  });

  it('checks URL and e-mail fields', () => {
    const qr = ep('/qrcode/url');
    expect(validateFields(qr, { ...initialValues(qr), url: 'example.com' }, {})).toEqual({
      url: validationMessages.url,
    });
    const contact = ep('/qrcode/contact');
    expect(validateFields(contact, { ...initialValues(contact), email: 'jane@' }, {})).toEqual({
      email: validationMessages.email,
    });
  });

  it('checks how many files are chosen', () => {
    const merge = ep('/pdf/merge');
    expect(validateFields(merge, {}, { files: [pdf()] })).toEqual({ files: validationMessages.minFiles(2) });
    const many = Array.from({ length: 21 }, (_, i) => pdf(`${i}.pdf`));
    expect(validateFields(merge, {}, { files: many })).toEqual({ files: validationMessages.maxFiles(20) });
    expect(validateFields(merge, {}, { files: many.slice(0, 2) })).toEqual({});
  });
});

describe('planCall', () => {
  it('sends multipart with the key in x-api-key, the text fields and the files', () => {
    const wm = ep('/pdf/watermark');
    const file = pdf('report.pdf');
    const plan = planCall(wm, { apiBase, apiKey: 'dfk_secret', values: initialValues(wm), files: { file: [file] } });
    expect(plan.url).toBe('https://docflow.test/api/v1/pdf/watermark');
    expect(plan.headers).toEqual([['x-api-key', 'dfk_secret']]);
    // Empty optional fields (rotation) are left to the server's default; checkboxes always go.
    expect(plan.fields).toEqual([
      ['text', 'CONFIDENTIAL'],
      ['position', 'diagonal'],
      ['opacity', '0.3'],
      ['fontSize', '48'],
      ['color', '#808080'],
      ['repeat', 'false'],
      ['spacingX', '100'],
      ['spacingY', '100'],
    ]);
    expect(plan.files).toEqual([{ field: 'file', name: 'report.pdf', file }]);
    expect(plan.headers).toEqual([['x-api-key', 'dfk_secret']]);
  });

  it('sends JSON with a Bearer key, numbers as numbers', () => {
    const qr = ep('/qrcode/url');
    const plan = planCall(qr, { apiBase, apiKey: 'dfk_secret', values: initialValues(qr), files: {} });
    expect(plan.headers).toEqual([
      ['Authorization', 'Bearer dfk_secret'],
      ['Content-Type', 'application/json'],
    ]);
    expect(plan.json).toEqual({ url: 'https://example.com', size: 256, color: '#000000', background: '#ffffff' });
  });

  it('stands in sample file names for the code examples only', () => {
    const merge = ep('/pdf/merge');
    expect(planCall(merge, { apiBase, apiKey: 'k', values: {}, files: {} }).files).toEqual([]);
    expect(planCall(merge, { apiBase, apiKey: 'k', values: {}, files: {}, sampleFiles: true }).files).toEqual([
      { field: 'files', name: 'first.pdf' },
      { field: 'files', name: 'second.pdf' },
    ]);
  });
});

describe("validateFields: what the server's schema would refuse, in the interface's language", () => {
  afterEach(() => setLanguage('en'));

  it('words a bound the form does not check itself (a text too long) from its zod code, beside the field', () => {
    const watermark = ep('/pdf/watermark');
    const values = { ...initialValues(watermark), text: 'x'.repeat(501) };
    const files = { file: [pdf()] };
    expect(validateFields(watermark, values, files)).toEqual({ text: 'Must be at most 500 characters.' });
    setLanguage('fr');
    expect(validateFields(watermark, values, files)).toEqual({ text: 'Doit comporter au plus 500 caractères.' });
  });

  it("leaves a rule the schema words itself (a colour's pattern) to the server", () => {
    const watermark = ep('/pdf/watermark');
    const values = { ...initialValues(watermark), text: 'Draft', color: 'red' };
    expect(validateFields(watermark, values, { file: [pdf()] })).toEqual({});
  });
});
