import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  decodePDFRawStream,
  type PDFDocument,
  type PDFObject,
} from 'pdf-lib';
import {
  ContentSyntaxError,
  parseContent,
  writeOperand,
  writeOperation,
  type Operand,
  type Operation,
} from './content-lexer';
import { glyphMetrics, type GlyphMetrics } from './fonts';
import { carriesText, withoutTextEntries } from './marked-content';
import { IDENTITY, intersects, invert, multiply, transformRect, type Matrix, type Rect } from './geometry';
import { paintImage, type Rgb } from './images';

export interface RedactionTally {
  glyphs: number;
  /** Images whose pixels under an area were painted over. */
  imagesPainted: number;
  /** Images removed whole: inline images, and image formats that cannot be repainted here. */
  imagesRemoved: number;
  /** Marked-content sections and XObjects of hidden optional-content layers removed (scrub). */
  hiddenContent: number;
}

export interface ContentJob {
  doc: PDFDocument;
  /** The areas in the page's user space. */
  areas: Rect[];
  fill: Rgb;
  tally: RedactionTally;
  /** Optional-content groups switched off by default, whose content is removed (scrub); empty: kept. */
  hidden: Set<PDFDict>;
}

/** Whether an optional-content group, or a membership dictionary all of whose groups are hidden, is off. */
function isHidden(job: ContentJob, oc: PDFObject | undefined): boolean {
  const dict = oc instanceof PDFRef ? job.doc.context.lookup(oc) : oc;
  if (!(dict instanceof PDFDict) || !job.hidden.size) return false;
  if (job.hidden.has(dict)) return true;
  if (dict.lookup(PDFName.of('Type')) !== PDFName.of('OCMD')) return false;
  const groups = dict.lookup(PDFName.of('OCGs'));
  const list = groups instanceof PDFArray ? groups.asArray() : groups ? [groups] : [];
  return list.length > 0 && list.every((g) => isHidden(job, g));
}

/** Forms drawn inside forms: deeper nesting than this is left to the fill rectangle alone. */
const MAX_FORM_DEPTH = 8;
/** A glyph's box as a share of the font size, below and above the baseline (typical descent and ascent). */
const DESCENT = 0.25;
const ASCENT = 0.9;

interface GraphicsState {
  ctm: Matrix;
  charSpacing: number;
  wordSpacing: number;
  scale: number;
  leading: number;
  font?: GlyphMetrics;
  size: number;
  rise: number;
}

const numberOf = (o: Operand | undefined) => (o?.kind === 'number' ? o.value : 0);
/** A stream's data; a filter that cannot be decoded here refuses the page rather than leave it unredacted. */
function decoded(s: PDFRawStream): Uint8Array {
  try {
    return decodePDFRawStream(s).decode();
  } catch (err) {
    throw new ContentSyntaxError(`a stream cannot be decoded: ${(err as Error).message}`);
  }
}

/** The streams of a page's /Contents, decoded and joined (an operation may run across two of them). */
export function pageContentBytes(contents: PDFObject | undefined, doc: PDFDocument): Uint8Array {
  const parts: Uint8Array[] = [];
  const add = (o: PDFObject | undefined) => {
    const s = o instanceof PDFRef ? doc.context.lookup(o) : o;
    if (s instanceof PDFRawStream) parts.push(decoded(s), Uint8Array.of(0x0a));
    else if (s instanceof PDFArray) s.asArray().forEach(add);
  };
  add(contents);
  return Buffer.concat(parts);
}

/** A fresh resource name in a dictionary, so a rewritten copy never replaces what another page draws. */
function register(resources: PDFDict, doc: PDFDocument, ref: PDFRef): string {
  let xobjects = resources.lookup(PDFName.of('XObject'));
  if (!(xobjects instanceof PDFDict)) {
    xobjects = doc.context.obj({});
    resources.set(PDFName.of('XObject'), xobjects);
  }
  const dict = xobjects as PDFDict;
  let k = dict.keys().length;
  while (dict.has(PDFName.of(`Redacted${k}`))) k++;
  dict.set(PDFName.of(`Redacted${k}`), ref);
  return `Redacted${k}`;
}

/**
 * Rewrite one content stream so nothing drawn under the areas stays in it: the glyphs whose box meets an area are
 * taken out of their strings (a kerning number of the same advance keeps the rest in place), image XObjects are
 * repainted under the areas (or removed when their format cannot be repainted), inline images meeting an area are
 * removed, and form XObjects are rewritten as copies the same way. Answers null when nothing changed.
 */
export async function redactContent(
  job: ContentJob,
  data: Uint8Array,
  resources: PDFDict | undefined,
  start: Matrix,
  depth = 0,
): Promise<Uint8Array | null> {
  const ops = parseContent(data);
  const fonts = resources?.lookup(PDFName.of('Font'));
  const xobjects = resources?.lookup(PDFName.of('XObject'));
  const metricsCache = new Map<string, GlyphMetrics>();
  const metricsOf = (name: string) => {
    let m = metricsCache.get(name);
    if (!m) {
      const font = fonts instanceof PDFDict ? fonts.lookup(PDFName.of(name)) : undefined;
      m = glyphMetrics(font instanceof PDFDict ? font : undefined);
      metricsCache.set(name, m);
    }
    return m;
  };

  let gs: GraphicsState = { ctm: start, charSpacing: 0, wordSpacing: 0, scale: 1, leading: 0, size: 0, rise: 0 };
  const stack: GraphicsState[] = [];
  let tm: Matrix = IDENTITY;
  let tlm: Matrix = IDENTITY;
  let changed = false;
  const out: string[] = [];
  const properties = resources?.lookup(PDFName.of('Properties'));
  /** Depth of marked content inside a hidden layer's section being dropped (0: not inside one). */
  let dropping = 0;
  /** Open marked-content sections whose properties carry text: where their BDC stands in `out`. */
  const sections: Array<{ at: number; op: Operation } | null> = [];
  const touched = new Set<{ at: number; op: Operation }>();
  const hits = (box: Rect) => job.areas.some((a) => intersects(a, box));

  const moveLine = (tx: number, ty: number) => {
    tlm = multiply([1, 0, 0, 1, tx, ty], tlm);
    tm = tlm;
  };

  /** Show strings and kerning numbers as TJ does; answers the array with the glyphs under the areas taken out. */
  const show = (items: Operand[]): { items: Operand[]; removed: number } => {
    const font = gs.font ?? metricsOf('');
    const result: Operand[] = [];
    let removed = 0;
    const push = (o: Operand) => {
      const last = result[result.length - 1];
      if (o.kind === 'number' && last?.kind === 'number') last.value += o.value;
      else if (o.kind === 'string' && last?.kind === 'string') last.bytes = Buffer.concat([last.bytes, o.bytes]);
      else result.push(o.kind === 'string' ? { kind: 'string', bytes: Uint8Array.from(o.bytes) } : { ...o });
    };
    for (const item of items) {
      if (item.kind === 'number') {
        tm = multiply([1, 0, 0, 1, (-item.value / 1000) * gs.size * gs.scale, 0], tm);
        push(item);
        continue;
      }
      if (item.kind !== 'string') continue;
      const b = item.bytes;
      for (let k = 0; k + font.bytesPerCode <= b.length; k += font.bytesPerCode) {
        const code = font.bytesPerCode === 2 ? (b[k]! << 8) | b[k + 1]! : b[k]!;
        const w0 = font.width(code);
        const spacing = gs.charSpacing + (font.bytesPerCode === 1 && code === 32 ? gs.wordSpacing : 0);
        const box = transformRect(
          multiply(tm, gs.ctm),
          0,
          gs.rise - DESCENT * gs.size,
          (w0 / 1000) * gs.size * gs.scale,
          gs.rise + ASCENT * gs.size,
        );
        if (gs.size !== 0 && hits(box)) {
          removed++;
          push({ kind: 'number', value: -(w0 + (spacing * 1000) / gs.size) });
        } else {
          push({ kind: 'string', bytes: b.subarray(k, k + font.bytesPerCode) });
        }
        tm = multiply([1, 0, 0, 1, ((w0 / 1000) * gs.size + spacing) * gs.scale, 0], tm);
      }
    }
    return { items: result, removed };
  };

  const showOp = (op: Operation, items: Operand[], prefix: string[]) => {
    const r = show(items);
    if (!r.removed) return out.push(op.source);
    changed = true;
    job.tally.glyphs += r.removed;
    for (const open of sections) if (open) touched.add(open);
    out.push([...prefix, writeOperation('TJ', [{ kind: 'array', items: r.items }])].join(' '));
  };

  for (const op of ops) {
    const a = op.operands;
    if (dropping) {
      if (op.operator === 'BMC' || op.operator === 'BDC') dropping++;
      else if (op.operator === 'EMC') dropping--;
      continue;
    }
    if (op.operator === 'BDC' && a[0]?.kind === 'name' && a[0].value === 'OC' && a[1]?.kind === 'name') {
      if (properties instanceof PDFDict && isHidden(job, properties.get(PDFName.of(a[1].value)))) {
        dropping = 1;
        changed = true;
        job.tally.hiddenContent++;
        continue;
      }
    }
    switch (op.operator) {
      case 'q':
        stack.push({ ...gs });
        break;
      case 'Q':
        gs = stack.pop() ?? gs;
        break;
      case 'cm':
        if (a.length === 6) gs.ctm = multiply(a.map(numberOf) as Matrix, gs.ctm);
        break;
      case 'BT':
        tm = tlm = IDENTITY;
        break;
      case 'Tc':
        gs.charSpacing = numberOf(a[0]);
        break;
      case 'Tw':
        gs.wordSpacing = numberOf(a[0]);
        break;
      case 'Tz':
        gs.scale = numberOf(a[0]) / 100;
        break;
      case 'TL':
        gs.leading = numberOf(a[0]);
        break;
      case 'Ts':
        gs.rise = numberOf(a[0]);
        break;
      case 'Tf':
        gs.font = metricsOf(a[0]?.kind === 'name' ? a[0].value : '');
        gs.size = numberOf(a[1]);
        break;
      case 'Td':
        moveLine(numberOf(a[0]), numberOf(a[1]));
        break;
      case 'TD':
        gs.leading = -numberOf(a[1]);
        moveLine(numberOf(a[0]), numberOf(a[1]));
        break;
      case 'Tm':
        if (a.length === 6) tm = tlm = a.map(numberOf) as Matrix;
        break;
      case 'T*':
        moveLine(0, -gs.leading);
        break;
    }
    switch (op.operator) {
      case 'BMC':
        sections.push(null);
        break;
      case 'BDC': {
        const props = a[1];
        sections.push(props?.kind === 'raw' && carriesText(props.text) ? { at: out.length, op } : null);
        break;
      }
      case 'EMC':
        sections.pop();
        break;
      case 'Tj':
        showOp(op, a.slice(0, 1), []);
        continue;
      case 'TJ':
        showOp(op, a[0]?.kind === 'array' ? a[0].items : [], []);
        continue;
      case "'":
        moveLine(0, -gs.leading);
        showOp(op, a.slice(0, 1), ['T*']);
        continue;
      case '"':
        gs.wordSpacing = numberOf(a[0]);
        gs.charSpacing = numberOf(a[1]);
        moveLine(0, -gs.leading);
        showOp(op, a.slice(2, 3), [writeOperand(a[0]!), 'Tw', writeOperand(a[1]!), 'Tc', 'T*']);
        continue;
      case 'BI':
        if (hits(transformRect(gs.ctm, 0, 0, 1, 1))) {
          changed = true;
          job.tally.imagesRemoved++;
          continue;
        }
        break;
      case 'Do': {
        const name = a[0]?.kind === 'name' ? a[0].value : '';
        const ref = xobjects instanceof PDFDict ? xobjects.get(PDFName.of(name)) : undefined;
        const xo = ref ? job.doc.context.lookup(ref) : undefined;
        if (!(xo instanceof PDFRawStream) || !resources) break;
        const replaced = await redactXObject(job, xo, resources, gs.ctm, depth);
        if (replaced === undefined) break;
        changed = true;
        if (replaced) out.push(`/${replaced} Do`);
        continue;
      }
    }
    out.push(op.source);
  }
  for (const { at, op } of touched) {
    const props = op.operands[1]!;
    const kept = props.kind === 'raw' ? withoutTextEntries(props.text) : null;
    out[at] = writeOperation('BDC', [op.operands[0]!, { kind: 'raw', text: kept ?? '<< >>' }]);
  }
  return changed ? Buffer.from(out.join('\n'), 'latin1') : null;
}

/**
 * An XObject drawn at `ctm` that meets an area: the name of its redacted copy, '' to remove the drawing, or
 * undefined to keep it as it is.
 */
async function redactXObject(
  job: ContentJob,
  xo: PDFRawStream,
  resources: PDFDict,
  ctm: Matrix,
  depth: number,
): Promise<string | '' | undefined> {
  if (isHidden(job, xo.dict.get(PDFName.of('OC')))) {
    job.tally.hiddenContent++;
    return '';
  }
  const subtype = xo.dict.lookup(PDFName.of('Subtype'));
  if (subtype === PDFName.of('Image')) {
    const under = job.areas.filter((area) => intersects(area, transformRect(ctm, 0, 0, 1, 1)));
    if (!under.length) return undefined;
    const inv = invert(ctm);
    if (!inv) return undefined;
    const painted = await paintImage(
      job.doc,
      xo,
      under.map((area) => transformRect(inv, area.x, area.y, area.x + area.width, area.y + area.height)),
      job.fill,
    );
    if (!painted) {
      job.tally.imagesRemoved++;
      return '';
    }
    job.tally.imagesPainted++;
    return register(resources, job.doc, painted);
  }
  if (subtype !== PDFName.of('Form') || depth >= MAX_FORM_DEPTH) return undefined;
  const m = xo.dict.lookup(PDFName.of('Matrix'));
  const matrix =
    m instanceof PDFArray && m.size() === 6
      ? (m.asArray().map((v) => (v instanceof PDFNumber ? v.asNumber() : 0)) as Matrix)
      : IDENTITY;
  const placed = multiply(matrix, ctm);
  const bbox = xo.dict.lookup(PDFName.of('BBox'));
  const corners =
    bbox instanceof PDFArray && bbox.size() === 4
      ? bbox.asArray().map((v) => (v instanceof PDFNumber ? v.asNumber() : 0))
      : null;
  // A form wholly outside the areas is not read (unless hidden layers are being scrubbed, which may be anywhere).
  if (corners && !job.hidden.size) {
    const drawn = transformRect(placed, corners[0]!, corners[1]!, corners[2]!, corners[3]!);
    if (!job.areas.some((area) => intersects(area, drawn))) return undefined;
  }
  const own = xo.dict.lookup(PDFName.of('Resources'));
  const formResources = own instanceof PDFDict ? own : resources;
  const rewritten = await redactContent(job, decoded(xo), formResources, placed, depth + 1);
  if (!rewritten) return undefined;
  const copy = job.doc.context.flateStream(rewritten);
  for (const [k, v] of xo.dict.entries()) {
    if (k !== PDFName.of('Length') && k !== PDFName.of('Filter') && k !== PDFName.of('DecodeParms'))
      copy.dict.set(k, v);
  }
  return register(resources, job.doc, job.doc.context.register(copy));
}
