import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { StandardFontEmbedder, StandardFonts, type PDFDocument, type PDFFont } from 'pdf-lib';
import { EngineError } from '../../errors';

/**
 * Fonts for the values drawn into form fields. WinAnsi text is drawn in Helvetica (nothing embedded); other text in
 * the first installed Unicode face that has every character, embedded as a subset: DejaVu Sans and Noto Sans for
 * Latin, Greek and Cyrillic, Noto Sans CJK for Chinese, Japanese and Korean (Debian's fonts-dejavu-core,
 * fonts-noto-core and fonts-noto-cjk; scripts/bootstrap.mjs installs them).
 *
 * The subsets are made with fontkit 2 rather than pdf-lib's own fork (@pdf-lib/fontkit 1.1): the fork writes CFF
 * subsets of CID-keyed fonts (Noto Sans CJK) that poppler and FreeType reject (nothing drawn, text still extractable)
 * and TrueType subsets whose short `loca` offsets lose glyphs (pdf-lib issue #1232).
 */

const faces = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf',
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
];

/** The part of fontkit 2 used here (it ships no types). */
interface KitFont {
  postscriptName: string;
  hasGlyphForCodePoint(cp: number): boolean;
  createSubset(): KitSubset;
}
interface KitSubset {
  encode(): Uint8Array;
  encodeStream?: () => unknown;
}
interface Kit {
  create(bytes: Uint8Array): KitFont | { fonts: KitFont[] };
}

let kit: Promise<Kit> | undefined;
const loadKit = () =>
  (kit ??=
    // @ts-expect-error -- fontkit 2 ships no types: `Kit` above is the part of it used here.
    import('fontkit').then((m: { default?: unknown }) => (m.default ?? m) as Kit));

/** The first face of a collection (NotoSansCJK-Regular.ttc holds the same glyphs under five regional names). */
const single = (f: KitFont | { fonts: KitFont[] }): KitFont => ('fonts' in f ? f.fonts[0]! : f);

/**
 * fontkit 2 as pdf-lib's `registerFontkit` expects the fork: `encodeStream()` was replaced by `encode()` upstream,
 * and pdf-lib reads the subset as a stream of one chunk.
 */
function forPdfLib(k: Kit) {
  return {
    create(bytes: Uint8Array) {
      const font = single(k.create(Buffer.from(bytes)));
      const subsetOf = font.createSubset.bind(font);
      font.createSubset = () => {
        const subset = subsetOf();
        subset.encodeStream = () => {
          const handlers: Record<string, (chunk?: Uint8Array) => void> = {};
          const stream = {
            on(event: string, fn: (chunk?: Uint8Array) => void) {
              handlers[event] = fn;
              if (event === 'end') {
                queueMicrotask(() => {
                  handlers.data?.(subset.encode());
                  fn();
                });
              }
              return stream;
            },
          };
          return stream;
        };
        return subset;
      };
      return font;
    },
  };
}

interface Face {
  bytes: Buffer;
  font: KitFont;
}

/** Read and parsed once per process; a face not installed is remembered as null and skipped. */
const faceCache = new Map<string, Promise<Face | null>>();
function loadFace(file: string): Promise<Face | null> {
  let face = faceCache.get(file);
  if (!face) {
    face = Promise.all([readFile(file), loadKit()])
      .then(([bytes, k]) => ({ bytes, font: single(k.create(bytes)) }))
      .catch(() => null);
    faceCache.set(file, face);
  }
  return face;
}

function isWinAnsi(text: string): boolean {
  try {
    StandardFontEmbedder.for(
      StandardFonts.Helvetica as unknown as Parameters<typeof StandardFontEmbedder.for>[0],
    ).encodeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * pdf-lib lays glyphs one after another: scripts that need shaping or right-to-left ordering (Arabic, Hebrew, Indic,
 * Thai…) would be drawn wrong, so they are refused; CJK ideographs, kana and Hangul syllables read as laid out.
 */
const laidOutAsWritten =
  /^[\p{scx=Latin}\p{scx=Greek}\p{scx=Cyrillic}\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Bopomofo}\p{scx=Common}\p{scx=Inherited}]$/u;
const layoutControl = /[\p{Cc}\p{Bidi_Control}]/u;

const hex = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

const subsetTag = () => Array.from({ length: 6 }, () => String.fromCharCode(65 + randomInt(26))).join('');

/**
 * A font per document that draws `texts`: the field named in errors is `values.<name>`. Embedded faces are kept per
 * document (one subset each, holding every glyph drawn with it).
 */
export class FormFonts {
  private readonly embedded = new Map<string, Promise<PDFFont>>();
  private registered = false;

  constructor(private readonly doc: PDFDocument) {}

  async fontFor(text: string, field: string): Promise<PDFFont> {
    const plain = text.replace(/[\r\n]/g, '');
    if (isWinAnsi(plain)) return this.embed('Helvetica', () => this.doc.embedFont(StandardFonts.Helvetica));
    const chars = [...new Set(plain.normalize('NFC'))];
    const refused = chars.find((ch) => !laidOutAsWritten.test(ch) || layoutControl.test(ch));
    if (refused) {
      throw new EngineError(
        'INVALID_INPUT',
        `${field}: the character ${JSON.stringify(refused)} (${hex(refused)}) cannot be drawn in a form field (supported: Latin, Greek, Cyrillic and CJK scripts; right-to-left scripts and scripts that need shaping are not)`,
        { details: { field, character: refused } },
      );
    }
    const loaded = (await Promise.all(faces.map(loadFace))).filter((f): f is Face => f !== null);
    const face = loaded.find((f) => chars.every((ch) => f.font.hasGlyphForCodePoint(ch.codePointAt(0)!)));
    if (!face) {
      const missing = chars.find((ch) => !loaded.some((f) => f.font.hasGlyphForCodePoint(ch.codePointAt(0)!)));
      const ch = missing ?? chars[0]!;
      throw new EngineError(
        'INVALID_INPUT',
        `${field}: the character ${JSON.stringify(ch)} (${hex(ch)}) is in none of the fonts installed on this server`,
        { details: { field, character: ch } },
      );
    }
    return this.embed(face.font.postscriptName, async () => {
      if (!this.registered) {
        // The adapter's fonts are fontkit 2's: the fork's Font type, which pdf-lib names, is the same API.
        this.doc.registerFontkit(
          forPdfLib(await loadKit()) as unknown as Parameters<PDFDocument['registerFontkit']>[0],
        );
        this.registered = true;
      }
      return this.doc.embedFont(face.bytes, {
        subset: true,
        customName: `${subsetTag()}+${face.font.postscriptName}`,
      });
    });
  }

  private embed(key: string, make: () => Promise<PDFFont>): Promise<PDFFont> {
    let font = this.embedded.get(key);
    if (!font) {
      font = make();
      this.embedded.set(key, font);
    }
    return font;
  }
}
