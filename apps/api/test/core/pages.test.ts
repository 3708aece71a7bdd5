import { describe, expect, it } from 'vitest';
import {
  compressPages,
  pageRuns,
  splitRuns,
  parsePageList,
  parsePageOrder,
  parsePageRanges,
  parsePageSet,
} from '../../src/core/pages';

describe('page ranges', () => {
  it('parses lists, ranges, open ends and "all"', () => {
    expect(parsePageList('1-3,5', 10, 'pages')).toEqual([1, 2, 3, 5]);
    expect(parsePageList(' 8- ', 10, 'pages')).toEqual([8, 9, 10]);
    expect(parsePageList('3,1', 10, 'pages')).toEqual([3, 1]);
    expect(parsePageList('last', 4, 'pages')).toEqual([4]);
    expect(parsePageList('', 3, 'pages')).toEqual([1, 2, 3]);
    expect(parsePageList('all', 2, 'pages')).toEqual([1, 2]);
    expect(parsePageSet('5,1-2,2', 10, 'pages')).toEqual([1, 2, 5]);
    expect(parsePageRanges('1-3,5', 10, 'ranges')).toEqual([
      { from: 1, to: 3 },
      { from: 5, to: 5 },
    ]);
  });

  it.each([
    ['5-2', 'runs backwards'],
    ['0', 'pages start at 1'],
    ['abc', 'is not a page number'],
    ['11', 'beyond the last page'],
    ['1-99', 'beyond the last page'],
    ['1,,2', 'empty item'],
    ['-3', 'is not a page number'],
    ['99999999999999999999', 'out of range'],
  ])('refuses %j with INVALID_INPUT naming the field and the valid form', (spec, why) => {
    let err: unknown;
    try {
      parsePageList(spec, 10, 'pages');
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'pages' } });
    expect((err as Error).message).toContain('pages:');
    expect((err as Error).message).toContain(why);
    expect((err as Error).message).toContain('valid: page numbers from 1 to 10');
  });

  it('a new order lists every page once, or "reverse"', () => {
    expect(parsePageOrder('3,1,2', 3, 'order')).toEqual([3, 1, 2]);
    expect(parsePageOrder('2-3,1', 3, 'order')).toEqual([2, 3, 1]);
    expect(parsePageOrder('reverse', 3, 'order')).toEqual([3, 2, 1]);
    expect(() => parsePageOrder('1,1,2', 3, 'order')).toThrow(/appears twice/);
    expect(() => parsePageOrder('1,2', 3, 'order')).toThrow(/missing: 3/);
  });

  it('compresses and splits runs', () => {
    expect(compressPages([1, 2, 3, 5, 7, 8])).toBe('1-3,5,7-8');
    expect(compressPages([3, 1])).toBe('3,1');
    expect(pageRuns([1, 2, 4, 5, 6, 9])).toEqual([
      { from: 1, to: 2 },
      { from: 4, to: 6 },
      { from: 9, to: 9 },
    ]);
  });

  it('cuts runs into pieces for several processes, in order, only when each piece is worth a process', () => {
    expect(splitRuns([{ from: 1, to: 200 }], 2, 40)).toEqual([
      { from: 1, to: 100 },
      { from: 101, to: 200 },
    ]);
    expect(splitRuns([{ from: 1, to: 200 }], 3, 40)).toEqual([
      { from: 1, to: 67 },
      { from: 68, to: 133 },
      { from: 134, to: 200 },
    ]);
    expect(splitRuns([{ from: 1, to: 60 }], 2, 40)).toEqual([{ from: 1, to: 60 }]); // two pieces of 30: not worth it
    expect(splitRuns([{ from: 1, to: 200 }], 1, 40)).toEqual([{ from: 1, to: 200 }]);
    expect(splitRuns([{ from: 1, to: 200 }], 0, 40)).toEqual([{ from: 1, to: 200 }]); // busy server
    expect(
      splitRuns(
        [
          { from: 1, to: 50 },
          { from: 60, to: 110 },
        ],
        2,
        40,
      ),
    ).toEqual([
      { from: 1, to: 50 },
      { from: 60, to: 110 },
    ]);
    const pieces = splitRuns(
      [
        { from: 5, to: 90 },
        { from: 100, to: 180 },
      ],
      4,
      40,
    );
    expect(pieces).toHaveLength(4);
    expect(pieces.flatMap((r) => Array.from({ length: r.to - r.from + 1 }, (_, i) => r.from + i))).toEqual([
      ...Array.from({ length: 86 }, (_, i) => i + 5),
      ...Array.from({ length: 81 }, (_, i) => i + 100),
    ]);
  });
});
