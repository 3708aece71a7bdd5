import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type fontkit from '@pdf-lib/fontkit';
import { StandardFontEmbedder, StandardFonts, type PDFDocument, type PDFFont } from 'pdf-lib';
import { EngineError } from '../errors';

/**
 * Fonts for stamped text. The standard PDF fonts cost nothing (nothing is embedded) but only draw WinAnsi
 * (Western European) text; anything else is drawn with a Unicode TrueType face of the system, embedded as a subset.
 */

export type FontFamily = 'helvetica' | 'helvetica-bold' | 'times' | 'courier';

const standardFonts: Record<FontFamily, StandardFonts> = {
  helvetica: StandardFonts.Helvetica,
  'helvetica-bold': StandardFonts.HelveticaBold,
  times: StandardFonts.TimesRoman,
  courier: StandardFonts.Courier,
};

/** Debian's fonts-dejavu-core and fonts-noto-core (scripts/bootstrap.mjs installs both). */
const fontRoot = '/usr/share/fonts/truetype';

/** Per family, in order of preference: the look closest to the standard font first. */
const unicodeFaces: Record<FontFamily, string[]> = {
  helvetica: ['dejavu/DejaVuSans.ttf', 'noto/NotoSans-Regular.ttf'],
  'helvetica-bold': ['dejavu/DejaVuSans-Bold.ttf', 'noto/NotoSans-Bold.ttf'],
  times: ['dejavu/DejaVuSerif.ttf', 'noto/NotoSerif-Regular.ttf'],
  courier: ['dejavu/DejaVuSansMono.ttf', 'noto/NotoSansMono-Regular.ttf'],
};

/** The widest-coverage face: symbols the serif and Noto faces lack (✓, ★) are better drawn in it than refused. */
const lastResort = 'dejavu/DejaVuSans.ttf';

const SUPPORTED_SCRIPTS = 'Latin, Greek, Cyrillic, Armenian and Georgian scripts and common symbols';
const NOT_SUPPORTED =
  'right-to-left scripts (Arabic, Hebrew), scripts that need shaping (Indic, Thai…) and CJK are not';

/**
 * pdf-lib lays glyphs one after another: no bidirectional reordering, no contextual shaping, no mark positioning.
 * Only scripts that read correctly that way are drawn; a character is judged by its script extensions, so the
 * punctuation and marks of other scripts (Arabic comma, Devanagari danda) are refused with them.
 */
const laidOutAsWritten =
  /^[\p{scx=Latin}\p{scx=Greek}\p{scx=Cyrillic}\p{scx=Armenian}\p{scx=Georgian}\p{scx=Common}\p{scx=Inherited}]$/u;
const layoutControl = /[\p{Cc}\p{Bidi_Control}]/u;

const isDrawable = (ch: string) => laidOutAsWritten.test(ch) && !layoutControl.test(ch);

/**
 * Composed form: a letter with its accent is one glyph, drawn right, where a base letter followed by a combining
 * mark relies on mark positioning pdf-lib does not do.
 */
export const drawableText = (text: string) => text.normalize('NFC');

interface Face {
  bytes: Uint8Array;
  font: fontkit.Font;
}

/**
 * fontkit is loaded with the first Unicode face: its 1.5 MB of code took ~0.5 s of every start and stayed in the
 * heap of servers that only ever draw standard fonts (npm run bench -- footprint).
 */
let fontkitModule: Promise<typeof fontkit> | undefined;
const loadFontkit = () => (fontkitModule ??= import('@pdf-lib/fontkit').then((m) => m.default));

/** Read and parsed once per process; a missing or unreadable file is remembered as null and skipped. */
const faceCache = new Map<string, Promise<Face | null>>();

function loadFace(file: string): Promise<Face | null> {
  let face = faceCache.get(file);
  if (!face) {
    face = Promise.all([readFile(path.join(fontRoot, file)), loadFontkit()])
      .then(([bytes, kit]) => ({ bytes, font: kit.create(bytes) }))
      .catch(() => null);
    faceCache.set(file, face);
  }
  return face;
}

async function installedFaces(family: FontFamily): Promise<Face[]> {
  const files = unicodeFaces[family].includes(lastResort)
    ? unicodeFaces[family]
    : [...unicodeFaces[family], lastResort];
  const faces = await Promise.all(files.map(loadFace));
  return faces.filter((f): f is Face => f !== null);
}

/** The encoder alone, so that the test embeds nothing; the enum and the embedder's FontNames are the same names. */
type EmbedderFontName = Parameters<typeof StandardFontEmbedder.for>[0];

function isWinAnsi(family: FontFamily, text: string): boolean {
  try {
    StandardFontEmbedder.for(standardFonts[family] as unknown as EmbedderFontName).encodeText(text);
    return true;
  } catch {
    return false;
  }
}

const describeChar = (ch: string) =>
  `${JSON.stringify(ch)} (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`;

function charError(field: string, ch: string, why: string): EngineError {
  return new EngineError('INVALID_INPUT', `${field}: the character ${describeChar(ch)} ${why}`, {
    details: { field, character: ch },
  });
}
const refuse = (field: string, ch: string, why: string) =>
  charError(field, ch, `${why} (supported: ${SUPPORTED_SCRIPTS}; ${NOT_SUPPORTED})`);

const hasGlyph = (face: Face, ch: string) => face.font.hasGlyphForCodePoint(ch.codePointAt(0)!);

/** The first face that has every character, or the error naming a character none of them has. */
function pickFace(faces: Face[], chars: string[], field: string): Face {
  const face = faces.find((f) => chars.every((ch) => hasGlyph(f, ch)));
  if (face) return face;
  // Each character may be in some face, just not all in one: then name one the first face lacks.
  const uncovered =
    chars.find((ch) => !faces.some((f) => hasGlyph(f, ch))) ?? chars.find((ch) => !hasGlyph(faces[0]!, ch))!;
  throw refuse(field, uncovered, 'is in none of the fonts installed on this server');
}

/**
 * pdf-lib names a subset like the whole font; the tag (six capitals and "+") tells viewers and tools that it is a
 * subset, and keeps two subsets of one face apart when documents are merged.
 */
const subsetTag = () => Array.from({ length: 6 }, () => String.fromCharCode(65 + randomInt(26))).join('');

/**
 * Embed into `doc` the font of `family` that can draw every character of `text` (already passed through
 * drawableText): the standard font for WinAnsi text, else a subset of the first Unicode face that has them all.
 */
export async function embedFontFor(
  doc: PDFDocument,
  family: FontFamily,
  text: string,
  field: string,
): Promise<PDFFont> {
  if (isWinAnsi(family, text)) return doc.embedFont(standardFonts[family]);
  const chars = [...new Set(text)];
  const refused = chars.find((ch) => !isDrawable(ch));
  if (refused) throw refuse(field, refused, 'cannot be drawn');
  const faces = await installedFaces(family);
  if (!faces.length) {
    const ch = chars.find((c) => !isWinAnsi(family, c))!;
    throw charError(
      field,
      ch,
      'cannot be drawn: this server has no Unicode font (valid: Latin-1 / Western European text)',
    );
  }
  const face = pickFace(faces, chars, field);
  doc.registerFontkit(await loadFontkit());
  return doc.embedFont(face.bytes, { subset: true, customName: `${subsetTag()}+${face.font.postscriptName}` });
}
