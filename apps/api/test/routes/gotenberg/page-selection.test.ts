import { describe, expect, it } from 'vitest';
import { selectPages } from '../../../src/routes/gotenberg/page-selection';

/** The page selections Gotenberg's clients write for pdfcpu (its first engine) or qpdf, on a 6-page document. */
const pick = (spec: string) => selectPages(spec, 6, 'rotatePages');

describe('selectPages', () => {
  it('ranges, open ends and the last page under each tool’s name', () => {
    expect(pick('')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pick('1-3,5')).toEqual([1, 2, 3, 5]);
    expect(pick('4-')).toEqual([4, 5, 6]);
    expect(pick('-2')).toEqual([1, 2]);
    for (const last of ['l', 'z', 'end', 'last', 'Z']) expect(pick(`5-${last}`)).toEqual([5, 6]);
    expect(pick('l')).toEqual([6]);
  });

  it('even, odd and exclusions; a set in ascending order, pages past the end left out', () => {
    expect(pick('even')).toEqual([2, 4, 6]);
    expect(pick('odd,!5')).toEqual([1, 3]);
    expect(pick('!1,n6')).toEqual([2, 3, 4, 5]);
    expect(pick('5,1,5')).toEqual([1, 5]);
    expect(pick('5-9')).toEqual([5, 6]);
  });

  it('400 naming the field: backwards, words it does not know, nothing selected', () => {
    expect(() => pick('3-1')).toThrow("Invalid form data: form field 'rotatePages' is invalid (got '3-1')");
    expect(() => pick('first')).toThrow("form field 'rotatePages' is invalid (got 'first')");
    expect(() => pick('1,,2')).toThrow("form field 'rotatePages' is invalid");
    expect(() => pick('9')).toThrow("form field 'rotatePages' selects no page of a 6-page document (got '9')");
    expect(() => pick('!1-6')).toThrow('selects no page');
  });
});
