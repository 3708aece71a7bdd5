import { describe, expect, it } from 'vitest';
import { buildMultipart, fileNameFromDisposition, parseRetryAfter } from '../src/index';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads delay-seconds and HTTP dates; a past date is now; anything else is unknown', () => {
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('buildMultipart', () => {
  it('fields first (null left out), then file and files, with their names', async () => {
    const form = buildMultipart({
      fields: { angle: 90, flatten: true, pages: null, text: 'x' },
      file: new File(['a'], 'a.pdf'),
      files: [Buffer.from('b'), { data: new Uint8Array([99]), name: 'c.pdf', type: 'application/pdf' }],
      parts: [['image', new Blob(['d'])]],
    });
    expect([...form.keys()]).toEqual(['angle', 'flatten', 'text', 'file', 'files', 'files', 'image']);
    expect((form.get('image') as File).name).toBe('image-1');
    expect(form.get('angle')).toBe('90');
    expect(form.get('flatten')).toBe('true');
    const files = form.getAll('files') as File[];
    expect(files.map((f) => f.name)).toEqual(['file-1', 'c.pdf']);
    expect(files[1]!.type).toBe('application/pdf');
    expect(await files[0]!.text()).toBe('b');
    expect((form.get('file') as File).name).toBe('a.pdf');
  });
});

describe('fileNameFromDisposition', () => {
  it('prefers the UTF-8 name (RFC 6266)', () => {
    expect(fileNameFromDisposition(`attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`)).toBe(
      'résumé.pdf',
    );
    expect(fileNameFromDisposition('attachment; filename="a.pdf"')).toBe('a.pdf');
    expect(fileNameFromDisposition('attachment; filename=b.pdf')).toBe('b.pdf');
    expect(fileNameFromDisposition(null)).toBeUndefined();
  });
});
