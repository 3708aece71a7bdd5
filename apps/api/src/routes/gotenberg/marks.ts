import { compressPages } from '../../core/pages';
import type { FontFamily } from '../../core/pdf/fonts';
import type { OutputFile, PdfJob, PreparedPdf } from '../../core/operations/pdf/job';
import { watermarkPdf } from '../../core/operations/pdf/watermark';
import type { StampPosition, WatermarkSpec } from '../../core/pdf/stamp';
import { watermarkImage, watermarkPdfPage } from '../../core/pdf/watermark-image';
import type { UploadedFile } from '../../lib/uploads';
import { invalidForm, type GotenbergForm } from './form';
import { selectPages } from './page-selection';

/**
 * Gotenberg's watermark and stamp fields (`<kind>Source`, `<kind>Expression`, `<kind>Pages`, `<kind>Options`, and a
 * file in the `<kind>` field for image and PDF sources), read into what DocFlow's watermark operation draws.
 * `<kind>Options` holds pdfcpu's description keys (Gotenberg's default engine); the ones DocFlow draws are taken with
 * pdfcpu's defaults, any other is refused by name. Several marks per request, as Gotenberg: each field sent once per
 * mark, aligned by position.
 */

export type MarkKind = 'watermark' | 'stamp';

const MAX_MARK_BYTES = 10 * 1_048_576;

export interface GotenbergMark {
  source: 'text' | 'image' | 'pdf';
  /** The text to draw (text source). */
  text: string;
  /** The uploaded image or PDF (image and PDF sources). */
  file?: UploadedFile;
  /** The raw page selection (page-selection.ts reads it once the page count is known). */
  pages: string;
  /** Width as a fraction of the page width (image and PDF sources). */
  scale: number;
  draw: Omit<WatermarkSpec, 'mark'> & { fontSize?: number; font?: FontFamily };
}

const positions: Record<string, StampPosition> = {
  c: 'center',
  tl: 'top-left',
  tc: 'top-center',
  tr: 'top-right',
  l: 'middle-left',
  r: 'middle-right',
  bl: 'bottom-left',
  bc: 'bottom-center',
  br: 'bottom-right',
};

const fonts: Record<string, FontFamily> = {
  helvetica: 'helvetica',
  'helvetica-bold': 'helvetica-bold',
  'times-roman': 'times',
  times: 'times',
  courier: 'courier',
};

const namedColors: Record<string, string> = {
  black: '#000000',
  darkgray: '#555555',
  gray: '#808080',
  lightgray: '#aaaaaa',
  white: '#ffffff',
  red: '#ff0000',
  green: '#00ff00',
  blue: '#0000ff',
};

/** pdfcpu's option names (and the short forms its documentation uses) for what DocFlow draws. */
const optionNames: Record<string, string> = {
  font: 'font',
  fontname: 'font',
  points: 'points',
  color: 'color',
  fillcolor: 'color',
  rotation: 'rotation',
  rot: 'rotation',
  opacity: 'opacity',
  op: 'opacity',
  scale: 'scale',
  scalefactor: 'scale',
  sc: 'scale',
  position: 'position',
  pos: 'position',
  diagonal: 'diagonal',
  d: 'diagonal',
  offset: 'offset',
  off: 'offset',
};
const taken = 'font, points, color (fillcolor), rotation, opacity, scale (scalefactor), position, diagonal, offset';

/** pdfcpu's colours: "#rrggbb", "r g b" from 0 to 1, or a name. */
function hexColor(v: string): string | undefined {
  const s = v.trim().toLowerCase();
  if (/^#?[\da-f]{6}$/.test(s)) return s.startsWith('#') ? s : `#${s}`;
  if (namedColors[s]) return namedColors[s];
  const parts = s.split(/[\s,]+/).map(Number);
  if (parts.length !== 3 || parts.some((n) => !(n >= 0 && n <= 1))) return undefined;
  return `#${parts
    .map((n) =>
      Math.round(n * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** The options' JSON: pdfcpu's keys to values (Gotenberg wants strings; numbers are taken too). */
function readOptions(form: GotenbergForm, key: string, raw: string | undefined): Map<string, string> | undefined {
  if (raw === undefined || raw === '') return new Map();
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    json = undefined;
  }
  const entries = json && typeof json === 'object' && !Array.isArray(json) ? Object.entries(json) : undefined;
  if (!entries || entries.some(([, v]) => typeof v !== 'string' && typeof v !== 'number')) {
    form.fail(key, 'is invalid: expected a JSON object of pdfcpu options such as {"opacity":"0.3","rotation":"45"}');
    return undefined;
  }
  const options = new Map<string, string>();
  for (const [k, v] of entries) {
    const name = optionNames[k.toLowerCase()];
    if (name) options.set(name, String(v).trim());
    else form.fail(key, `has the option '${k}', which DocFlow does not draw (valid: ${taken})`);
  }
  return options;
}

function numberIn(form: GotenbergForm, key: string, option: string, v: string, range: [number, number]) {
  const n = Number(v);
  if (v === '' || !Number.isFinite(n) || n < range[0] || n > range[1]) {
    form.fail(key, `has an invalid '${option}' (got '${v}'): expected a number from ${range[0]} to ${range[1]}`);
    return undefined;
  }
  return n;
}

/** What DocFlow draws from pdfcpu's options, pdfcpu's defaults for the rest (grey, opaque, centred along the diagonal). */
function drawOptions(form: GotenbergForm, key: string, o: Map<string, string>, source: GotenbergMark['source']) {
  const get = (name: string) => o.get(name);
  const draw: GotenbergMark['draw'] = {
    position: 'center',
    opacity: 1,
    color: '#808080',
    repeat: false,
    spacingX: 0,
    spacingY: 0,
    margin: 0,
  };
  let scale = 0.5;
  const position = get('position');
  if (position !== undefined) {
    const p = positions[position.toLowerCase()];
    if (p) draw.position = p;
    else
      form.fail(
        key,
        `has an invalid 'position' (got '${position}'): expected one of ${Object.keys(positions).join(', ')}`,
      );
  }
  const rotation = get('rotation');
  if (rotation !== undefined) draw.rotation = numberIn(form, key, 'rotation', rotation, [-180, 180]);
  const diagonal = get('diagonal') ?? '1';
  if (diagonal !== '1' && diagonal !== '2')
    form.fail(key, `has an invalid 'diagonal' (got '${diagonal}'): expected 1 or 2`);
  else if (diagonal === '2' && rotation === undefined)
    form.fail(key, "has 'diagonal' 2, which DocFlow does not draw: give a 'rotation' instead (such as -45)");
  // pdfcpu turns a centred mark along the page's diagonal unless a rotation is given.
  if (rotation === undefined && draw.position === 'center') draw.position = 'diagonal';
  const opacity = get('opacity');
  if (opacity !== undefined) draw.opacity = numberIn(form, key, 'opacity', opacity, [0, 1]) ?? 1;
  const color = get('color');
  if (color !== undefined) {
    const hex = hexColor(color);
    if (hex) draw.color = hex;
    else form.fail(key, `has an invalid 'color' (got '${color}'): expected #rrggbb, 'r g b' from 0 to 1, or a name`);
  }
  const offset = get('offset');
  if (offset !== undefined && !/^0+(\.0+)?[\s,]+0+(\.0+)?$/.test(offset))
    form.fail(key, `has an 'offset' (got '${offset}') DocFlow does not apply: leave it out or send '0 0'`);
  const font = get('font');
  const points = get('points');
  const scaleValue = get('scale');
  if (source === 'text') {
    if (font !== undefined) {
      draw.font = fonts[font.toLowerCase()];
      if (!draw.font)
        form.fail(
          key,
          `has the font '${font}', which DocFlow does not draw (valid: Helvetica, Helvetica-Bold, Times-Roman, Courier)`,
        );
    }
    if (points !== undefined) draw.fontSize = numberIn(form, key, 'points', points, [4, 500]);
    if (scaleValue !== undefined)
      form.fail(key, "has a 'scale' for a text source: DocFlow sizes text by 'points' (or fits it to the page)");
  } else {
    for (const [name, v] of [
      ['font', font],
      ['points', points],
    ] as const)
      if (v !== undefined) form.fail(key, `has '${name}', which only a text source takes`);
    if (scaleValue !== undefined) {
      const m = /^(\d*\.?\d+)(?:\s+rel)?$/.exec(scaleValue);
      const n = m ? Number(m[1]) : NaN;
      if (!(n > 0 && n <= 1))
        form.fail(
          key,
          `has an invalid 'scale' (got '${scaleValue}'): expected a fraction of the page width from 0 to 1 (relative)`,
        );
      else scale = n;
    }
  }
  return { draw, scale };
}

/**
 * The form's mark of `kind`, its file taken from the `<kind>` file field as Gotenberg binds it (the first file for the
 * first image or PDF mark, whatever `<kind>Expression` names). Undefined when no source is given.
 */
/**
 * Every mark of one kind (Gotenberg's repeated `<kind>Source`, `<kind>Expression`, `<kind>Pages`, `<kind>Options`,
 * aligned by position, one mark per source), in the order sent. Image and PDF marks take the `<kind>` files in order.
 */
export function readMarks(form: GotenbergForm, kind: MarkKind, extras: UploadedFile[]): GotenbergMark[] {
  const sourceKey = `${kind}Source`;
  const sources = form.strings(sourceKey);
  const expressions = form.strings(`${kind}Expression`);
  const pages = form.strings(`${kind}Pages`);
  const options = form.strings(`${kind}Options`);
  const files = extras.filter((f) => f.field === kind);
  const marks: GotenbergMark[] = [];
  for (const [i, source] of sources.entries()) {
    // An empty source is Gotenberg's "no mark here" (its default), not an error.
    if (source === '') continue;
    if (source !== 'text' && source !== 'image' && source !== 'pdf') {
      form.fail(
        sourceKey,
        `is invalid (got '${source}', resulting to wrong value, expected either 'text', 'image' or 'pdf')`,
      );
      continue;
    }
    const expression = expressions[i] ?? '';
    if (source === 'text' && !expression.trim()) form.fail(`${kind}Expression`, 'is required for a text source');
    const file = source === 'text' ? undefined : files.shift();
    if (source !== 'text' && !file) throw invalidForm(`a ${kind} file is required for image or pdf source`);
    // The mark is read in process (pdf-lib, sharp) while the stamp is drawn: a mark is small, a document is not.
    if (file && file.size > MAX_MARK_BYTES)
      throw invalidForm(`the ${kind} file '${file.filename}' is larger than ${MAX_MARK_BYTES / 1_048_576} MB`);
    const optionsKey = `${kind}Options`;
    const { draw, scale } = drawOptions(
      form,
      optionsKey,
      readOptions(form, optionsKey, options[i]) ?? new Map(),
      source,
    );
    marks.push({ source, text: expression, file, pages: pages[i] ?? '', scale, draw });
  }
  return marks;
}

/** Draw `mark` on the chosen pages: beneath the content for a watermark, over it for a stamp. */
export async function applyMark(
  job: PdfJob,
  input: PreparedPdf,
  mark: GotenbergMark,
  kind: MarkKind,
): Promise<OutputFile> {
  const pages = selectPages(mark.pages, input.pages, `${kind}Pages`);
  let drawn: WatermarkSpec['mark'];
  if (mark.source === 'text')
    drawn = { kind: 'text', text: mark.text, fontSize: mark.draw.fontSize, font: mark.draw.font };
  else if (mark.source === 'image') drawn = await watermarkImage(mark.file!.path, mark.scale);
  else drawn = await watermarkPdfPage(mark.file!.path, mark.scale);
  return watermarkPdf(job, input, { ...mark.draw, mark: drawn }, compressPages(pages), {
    under: kind === 'watermark',
  });
}
