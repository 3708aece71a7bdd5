import { describe, expect, it } from 'vitest';
import { catalogueEntry } from '@docflow/contracts';
import { findEndpoint } from '../../config/endpoints';
import { nameOfPath } from '../../config/generated-ui';
import { planCall } from '../request-plan';
import { fieldsOfSchema, labelOf } from '../schema-fields';

const field = (path: Parameters<typeof catalogueEntry>[0], name: string) => {
  const f = fieldsOfSchema(catalogueEntry(path).fields!).find((x) => x.name === name);
  if (!f) throw new Error(`${path} has no field ${name}`);
  return f;
};

describe('forms generated from the schemas the server validates with', () => {
  it('names an endpoint and a field from its path and name', () => {
    expect(nameOfPath('/conversion/word-to-pdf')).toBe('Word to PDF');
    expect(nameOfPath('/pdf/metadata/update')).toBe('Metadata update');
    expect(nameOfPath('/qrcode/wifi')).toBe('QR code: wifi');
    expect(nameOfPath('/ocr/searchable-pdf')).toBe('OCR: searchable PDF');
    expect(labelOf('marginTop')).toBe('Margin top');
  });

  it('gives each kind of field its control, with the bounds, choices and defaults of the schema', () => {
    expect(field('/pdf/rotate', 'angle')).toMatchObject({
      type: 'select',
      options: ['90', '180', '270'],
      required: true,
    });
    expect(field('/pdf/add-margins', 'unit')).toMatchObject({ type: 'select', default: 'pt' });
    expect(field('/conversion/html-to-image', 'width')).toMatchObject({ type: 'number', min: 16, max: 4096, step: 1 });
    expect(field('/qrcode/wifi', 'hidden')).toMatchObject({ type: 'checkbox', default: false });
    expect(field('/qrcode/wifi', 'color')).toMatchObject({ type: 'color', default: '#000000' });
    expect(field('/conversion/url-to-pdf', 'url')).toMatchObject({ type: 'url', required: true });
    // The server tells an absent `javascript` (the plan decides) from false: a three-way choice, not a checkbox.
    expect(field('/conversion/html-to-pdf', 'javascript')).toMatchObject({
      type: 'select',
      options: ['true', 'false'],
    });
    expect(field('/conversion/html-to-pdf', 'javascript').required).toBeUndefined();
  });

  it('sends a generated form as the server expects it: the upload, then only the fields given', () => {
    const e = findEndpoint('/pdf/add-margins')!;
    expect(e.output).toEqual({ kind: 'file', fileName: 'add-margins.pdf' });
    expect(findEndpoint('/pdf/metadata')!.output).toEqual({ kind: 'json' });
    const file = new File(['%PDF-1.4'], 'a.pdf', { type: 'application/pdf' });
    const plan = planCall(e, {
      apiBase: 'https://docflow.test/api/v1',
      apiKey: 'dfk_x',
      values: { margin: '20', unit: 'mm' },
      files: { file: [file] },
    });
    expect(plan.url).toBe('https://docflow.test/api/v1/pdf/add-margins');
    expect(plan.files.map((f) => [f.field, f.name])).toEqual([['file', 'a.pdf']]);
    expect(plan.fields).toEqual([
      ['margin', '20'],
      ['unit', 'mm'],
    ]);
  });
});
