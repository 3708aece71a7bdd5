import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/core/operations/pdf/form-rows';

/** The mail merge's CSV reader (RFC 4180, and the semicolon of spreadsheets saved with a decimal comma). */
describe('parseCsv', () => {
  it('quoted cells keep commas, doubled quotes and line breaks; CRLF, LF and a last line without one', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi"""\n"two\nlines",z')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['two\nlines', 'z'],
    ]);
  });

  it('a semicolon delimiter when the header has semicolons and no comma; a BOM dropped', () => {
    expect(parseCsv('\uFEFFname;price\nAda;1,5\n')).toEqual([
      ['name', 'price'],
      ['Ada', '1,5'],
    ]);
  });

  it('an unclosed quote is a 422 naming the csv field', () => {
    expect(() => parseCsv('a\n"open')).toThrow(/^csv: a quoted cell is not closed/);
  });
});
