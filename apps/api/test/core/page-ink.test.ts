import { describe, expect, it } from 'vitest';
import type { PageBox } from '../../src/core/operations/pdf/interfaces';
import { toPageSpace } from '../../src/core/operations/pdf/crop';
import { measureInk, parsePgm } from '../../src/core/operations/pdf/page-ink';

/** A gray page of `width` × `height` pixels at `paper`, with some pixels set. */
function page(width: number, height: number, paper: number, ink: Array<[number, number, number]>) {
  const pixels = Buffer.alloc(width * height, paper);
  for (const [x, y, v] of ink) pixels[y * width + x] = v;
  return { width, height, pixels };
}

describe('measureInk', () => {
  it('per pixel: the share and the bounds of the pixels darker than the white level', () => {
    const r = measureInk(
      page(10, 10, 255, [
        [2, 3, 0],
        [7, 5, 100],
        [5, 5, 240],
      ]),
      200,
    );
    expect(r.share).toBeCloseTo(0.02);
    expect(r.bounds).toEqual({ left: 2, top: 3, right: 8, bottom: 6 });
  });

  it('in cells: a lone speck fades into the paper, a mark that fills its cells stays ink', () => {
    const speck = page(16, 16, 235, [[5, 5, 0]]);
    expect(measureInk(speck, 200, 1).share).toBeGreaterThan(0);
    expect(measureInk(speck, 200, 4)).toMatchObject({ share: 0, bounds: null });
    const square: Array<[number, number, number]> = [];
    for (let y = 8; y < 12; y++) for (let x = 4; x < 8; x++) square.push([x, y, 0]);
    expect(measureInk(page(16, 16, 235, square), 200, 4)).toMatchObject({
      share: 1 / 16,
      bounds: { left: 4, top: 8, right: 8, bottom: 12 },
    });
  });

  it('nothing dark: no bounds', () => {
    expect(measureInk(page(4, 4, 255, []), 250)).toEqual({ share: 0, width: 4, height: 4, bounds: null });
  });
});

describe('parsePgm', () => {
  it('reads a binary PGM, comments included, and refuses a short one', () => {
    const data = Buffer.concat([Buffer.from('P5\n# pdftoppm\n3 2\n255\n'), Buffer.from([0, 1, 2, 3, 4, 5])]);
    expect(parsePgm(data)).toMatchObject({ width: 3, height: 2 });
    expect([...parsePgm(data).pixels]).toEqual([0, 1, 2, 3, 4, 5]);
    expect(() => parsePgm(data.subarray(0, data.length - 1))).toThrow(/cut short/);
  });
});

describe('toPageSpace', () => {
  const box = (rotate: number): PageBox => ({ page: 1, x: 10, y: 20, width: 600, height: 800, rotate });
  const r = { x: 5, y: 15, width: 100, height: 50 };
  it('maps a rectangle of the page as shown back into its own coordinates, for each quarter turn', () => {
    expect(toPageSpace(box(0), r)).toEqual({ x: 15, y: 35, width: 100, height: 50 });
    // 90: the shown x runs up the page, the shown y from its right edge leftwards.
    expect(toPageSpace(box(90), r)).toEqual({ x: 10 + 600 - 65, y: 20 + 5, width: 50, height: 100 });
    expect(toPageSpace(box(180), r)).toEqual({ x: 10 + 600 - 105, y: 20 + 800 - 65, width: 100, height: 50 });
    expect(toPageSpace(box(270), r)).toEqual({ x: 10 + 15, y: 20 + 800 - 105, width: 50, height: 100 });
  });
});
