import { Encodings, Font, FontNames } from '@pdf-lib/standard-fonts';
import { PDFArray, PDFDict, PDFName, PDFNumber, type PDFObject } from 'pdf-lib';

/** What placing a font's glyphs needs: how codes are cut from a string and how far each advances. */
export interface GlyphMetrics {
  bytesPerCode: 1 | 2;
  /** Advance of a code in thousandths of the font size (glyph space / 1000). */
  width(code: number): number;
}

const num = (o: PDFObject | undefined) => (o instanceof PDFNumber ? o.asNumber() : undefined);
const nameOf = (o: PDFObject | undefined) => (o instanceof PDFName ? o.decodeText() : undefined);

/** Names a PDF writer may give a Standard 14 font, subset prefix removed, mapped to the AFM that measures it. */
function standardFontName(base: string): FontNames | undefined {
  const n = base
    .replace(/^[A-Z]{6}\+/, '')
    .replace(/[ ,-]/g, '')
    .toLowerCase();
  const table: Array<[RegExp, FontNames]> = [
    [/^(helvetica|arial)(mt)?boldoblique|^(helvetica|arial)(mt)?bolditalic/, FontNames.HelveticaBoldOblique],
    [/^(helvetica|arial)(mt)?bold/, FontNames.HelveticaBold],
    [/^(helvetica|arial)(mt)?(oblique|italic)/, FontNames.HelveticaOblique],
    [/^(helvetica|arial)/, FontNames.Helvetica],
    [/^courier(new)?(ps)?(mt)?boldoblique|^courier(new)?(ps)?(mt)?bolditalic/, FontNames.CourierBoldOblique],
    [/^courier(new)?(ps)?(mt)?bold/, FontNames.CourierBold],
    [/^courier(new)?(ps)?(mt)?(oblique|italic)/, FontNames.CourierOblique],
    [/^courier/, FontNames.Courier],
    [/^times(newroman)?(ps)?(mt)?bolditalic/, FontNames.TimesRomanBoldItalic],
    [/^times(newroman)?(ps)?(mt)?bold/, FontNames.TimesRomanBold],
    [/^times(newroman)?(ps)?(mt)?italic/, FontNames.TimesRomanItalic],
    [/^times/, FontNames.TimesRoman],
    [/^symbol/, FontNames.Symbol],
    [/^zapfdingbats/, FontNames.ZapfDingbats],
  ];
  return table.find(([re]) => re.test(n))?.[1];
}

/** Code → glyph name of one of pdf-lib's encoding tables. */
const encodingNames = new Map<keyof typeof Encodings, Map<number, string>>();
function namesOf(encoding: keyof typeof Encodings): Map<number, string> {
  let names = encodingNames.get(encoding);
  if (!names) {
    names = new Map();
    for (const cp of Encodings[encoding].supportedCodePoints) {
      const { code, name } = Encodings[encoding].encodeUnicodeCodePoint(cp);
      names.set(code, name);
    }
    encodingNames.set(encoding, names);
  }
  return names;
}

/** A Standard 14 font's widths by code, for a simple font written without /Widths. */
function standardWidths(fontName: FontNames, encoding: PDFObject | undefined): (code: number) => number | undefined {
  const font = Font.load(fontName);
  // The symbolic fonts use their own encodings; the text fonts are measured as WinAnsi, which StandardEncoding
  // matches on the letters, digits and most punctuation.
  const base =
    fontName === FontNames.Symbol ? 'Symbol' : fontName === FontNames.ZapfDingbats ? 'ZapfDingbats' : 'WinAnsi';
  const names = new Map(namesOf(base));
  const differences = encoding instanceof PDFDict ? encoding.lookup(PDFName.of('Differences')) : undefined;
  if (differences instanceof PDFArray) {
    let code = 0;
    for (const item of differences.asArray()) {
      const n = num(item);
      if (n !== undefined) code = n;
      else if (item instanceof PDFName) names.set(code++, item.decodeText());
    }
  }
  return (code) => {
    const glyph = names.get(code);
    return glyph ? (font.getWidthOfGlyph(glyph) ?? undefined) : undefined;
  };
}

/** The /W array of a CIDFont: `c [w1 w2 …]` and `cFirst cLast w` runs. */
function cidWidths(w: PDFArray | undefined): Map<number, number> {
  const widths = new Map<number, number>();
  if (!w) return widths;
  const items = w.asArray();
  for (let k = 0; k < items.length;) {
    const first = num(items[k]);
    const next = items[k + 1];
    if (first === undefined) break;
    if (next instanceof PDFArray) {
      next.asArray().forEach((v, j) => widths.set(first + j, num(v) ?? 0));
      k += 2;
    } else {
      const last = num(next);
      const width = num(items[k + 2]);
      if (last === undefined || width === undefined) break;
      // A run is bounded by the 16-bit code space: a corrupt /W must not allocate without limit.
      for (let c = first; c <= Math.min(last, first + 0xffff); c++) widths.set(c, width);
      k += 3;
    }
  }
  return widths;
}

export function glyphMetrics(font: PDFDict | undefined): GlyphMetrics {
  if (!font) return { bytesPerCode: 1, width: () => 500 };
  const subtype = nameOf(font.get(PDFName.of('Subtype')));
  if (subtype === 'Type0') {
    const kids = font.lookup(PDFName.of('DescendantFonts'));
    const cid = kids instanceof PDFArray ? kids.lookup(0) : undefined;
    const cidFont = cid instanceof PDFDict ? cid : undefined;
    const dw = num(cidFont?.lookup(PDFName.of('DW'))) ?? 1000;
    const w = cidFont?.lookup(PDFName.of('W'));
    const widths = cidWidths(w instanceof PDFArray ? w : undefined);
    return { bytesPerCode: 2, width: (code) => widths.get(code) ?? dw };
  }
  const descriptor = font.lookup(PDFName.of('FontDescriptor'));
  const missing = (descriptor instanceof PDFDict ? num(descriptor.lookup(PDFName.of('MissingWidth'))) : undefined) ?? 0;
  const first = num(font.lookup(PDFName.of('FirstChar'))) ?? 0;
  const widthsArray = font.lookup(PDFName.of('Widths'));
  const widths = widthsArray instanceof PDFArray ? widthsArray.asArray().map((v) => num(v) ?? 0) : undefined;
  // Type 3 glyph space is the font's own matrix, not thousandths of the size.
  const fontMatrix = font.lookup(PDFName.of('FontMatrix'));
  const scale = subtype === 'Type3' && fontMatrix instanceof PDFArray ? (num(fontMatrix.lookup(0)) ?? 0.001) * 1000 : 1;
  const standard = standardFontName(nameOf(font.get(PDFName.of('BaseFont'))) ?? '');
  const fallback = standard ? standardWidths(standard, font.lookup(PDFName.of('Encoding'))) : () => undefined;
  return {
    bytesPerCode: 1,
    width(code) {
      const w = widths?.[code - first];
      if (w !== undefined) return w * scale;
      return fallback(code) ?? (missing || 500);
    },
  };
}
