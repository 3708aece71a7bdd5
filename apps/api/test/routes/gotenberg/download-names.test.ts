import { describe, expect, it } from 'vitest';
import { dispositionFileName } from '../../../src/routes/gotenberg/download-from';

/** The file name a downloadFrom answer gives in Content-Disposition (RFC 6266), as Go's mime.ParseMediaType reads it. */
describe('dispositionFileName', () => {
  it('reads quoted, bare and UTF-8 extended names; the extended one wins', () => {
    expect(dispositionFileName('attachment; filename="report 2024.pdf"')).toBe('report 2024.pdf');
    expect(dispositionFileName('attachment; filename=data.xml')).toBe('data.xml');
    expect(dispositionFileName(`attachment; filename="b.pdf"; filename*=UTF-8''b%C3%AAta.pdf`)).toBe('bêta.pdf');
    expect(dispositionFileName('inline; FILENAME="a\\"b.txt"')).toBe('a"b.txt');
  });

  it('is undefined without a name', () => {
    expect(dispositionFileName('attachment')).toBeUndefined();
    expect(dispositionFileName('attachment; size=3')).toBeUndefined();
  });
});
