import { describe, expect, it } from 'vitest';
import { endpointCatalogue } from '@docflow/contracts';
import { categoryOf, groupByCategory, topEndpoints } from '../endpoint-categories';

describe('usage by category', () => {
  it('groups by the path', () => {
    expect(categoryOf('/pdf/merge')).toBe('pdf');
    expect(categoryOf('/api/v1/conversion/batch-to-pdf')).toBe('conversion');
    expect(categoryOf('/qrcode/url')).toBe('qrcode');
    expect(categoryOf('/ocr/extract')).toBe('ocr');
    expect(categoryOf('/ping')).toBe('other');
    expect(categoryOf('/pdfx')).toBe('other');
  });

  it('takes the group from the endpoint catalogue, else the one the server metered', () => {
    for (const e of endpointCatalogue) {
      const expected = e.group === 'batch' ? 'conversion' : e.group === '*' ? 'other' : e.group;
      expect(categoryOf(e.path), e.path).toBe(expected);
    }
    expect(categoryOf('/pdf/retired-operation', 'pdf')).toBe('pdf');
    expect(categoryOf('/pdf/retired-operation')).toBe('other');
  });

  it('totals each category, keeps the four even when empty and adds Other only when used', () => {
    const rows = groupByCategory([
      { path: '/pdf/merge', requests: 30, successRate: 100 },
      { path: '/pdf/split', requests: 10, successRate: 100 },
      { path: '/ocr/extract', requests: 60, successRate: 90 },
    ]);
    expect(rows.map((r) => [r.label, r.requests])).toEqual([
      ['PDF Operations', 40],
      ['Document Conversion', 0],
      ['QR Code', 0],
      ['OCR', 60],
    ]);
    expect(rows[0]!.share).toBe(40);
    expect(rows[0]!.endpoints.map((e) => e.path)).toEqual(['/pdf/merge', '/pdf/split']);
    expect(groupByCategory([{ path: '/ping', requests: 2, successRate: 100 }]).at(-1)).toMatchObject({
      label: 'Other',
      requests: 2,
    });
  });

  it('keeps the 8 busiest endpoints', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ path: `/pdf/op${i}`, requests: i, successRate: 100 }));
    const top = topEndpoints(many);
    expect(top).toHaveLength(8);
    expect(top[0]!.path).toBe('/pdf/op11');
  });
});
