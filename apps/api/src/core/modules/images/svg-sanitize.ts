import { EngineError } from '../../errors';

/**
 * librsvg resolves references to other files: <image href>, <use href="other.svg#id">, <feImage>, url() in
 * presentation attributes and CSS, @import, <?xml-stylesheet?>, XInclude and external entities. An uploaded SVG must
 * reach nothing but itself, so the document is re-tokenised and re-serialised here: only same-document references
 * ("#id") and inline raster images (data:image/png|jpeg|gif|webp;base64) survive. Anything this tokeniser does not
 * understand is refused rather than passed through.
 */
export interface SanitizedSvg {
  svg: Buffer;
  /** Inline raster images kept (their sizes are checked before rendering: a pixel bomb can hide in a data: URI). */
  inlineImages: Buffer[];
  /** What was removed, for the log. */
  removed: string[];
}

const invalid = (why: string) => new EngineError('INVALID_DOCUMENT', `The SVG image could not be read (${why})`);
const refused = (why: string) =>
  new EngineError('INVALID_INPUT', `The SVG image was refused: ${why}`, { details: { field: 'files' } });

const DROPPED_ELEMENTS = new Set([
  'script',
  'foreignobject',
  'include',
  'iframe',
  'audio',
  'video',
  'handler',
  'listener',
]);
const INLINE_IMAGE = /^data:image\/(png|jpeg|jpg|gif|webp);base64,([A-Za-z0-9+/=\s]*)$/i;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const NAME = /^[A-Za-z_:][\w.:-]*/;

const escapeAttr = (v: string) =>
  v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const escapeText = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const localName = (n: string) => n.slice(n.indexOf(':') + 1).toLowerCase();

/** CSS with only same-document url()s, or null when it cannot be made safe (escapes can spell url( and @import). */
export function sanitizeCss(css: string): string | null {
  if (css.includes('\\') || /@import/i.test(css)) return null;
  const out = css.replace(/url\(\s*(['"]?)([\s\S]*?)\1\s*\)/gi, (whole, _q: string, target: string) =>
    target.trim().startsWith('#') ? whole : 'none',
  );
  // An unterminated url( runs to the end of the declaration in CSS: whatever follows it would be its target.
  if (/url\(\s*['"]?\s*(?!#)/i.test(out)) return null;
  return out;
}

export function sanitizeSvg(input: string, opts: { maxExpansion: number }): SanitizedSvg {
  const s = input.replace(/^\uFEFF/, '');
  const entities = new Map<string, string>();
  const removed: string[] = [];
  const inlineImages: Buffer[] = [];
  const stack: string[] = [];
  let out = '<?xml version="1.0" encoding="UTF-8"?>\n';
  let dropDepth = 0;
  let sawRoot = false;
  let expanded = 0;
  let i = 0;

  const decode = (raw: string): string =>
    raw.replace(/&(#x[0-9a-f]+|#[0-9]+|[A-Za-z_][\w.-]*);|&/gi, (m, ref: string | undefined) => {
      if (ref === undefined) throw invalid('a bare "&"');
      if (ref[0] === '#') {
        const cp = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
        if (!(cp > 0 && cp <= 0x10ffff)) throw invalid('a bad character reference');
        return String.fromCodePoint(cp);
      }
      const v = PREDEFINED[ref] ?? entities.get(ref);
      if (v === undefined) throw invalid(`an undefined entity &${ref};`);
      expanded += v.length;
      if (expanded > opts.maxExpansion) throw refused('its entities expand to too much text');
      return v;
    });

  /** The internal DTD subset: only plain internal general entities (Illustrator declares namespaces this way). */
  const readDoctype = () => {
    let j = i + 9;
    let subset = '';
    while (j < s.length && s[j] !== '>' && s[j] !== '[') j++;
    if (s[j] === '[') {
      const end = s.indexOf(']', j);
      if (end < 0) throw invalid('unterminated DOCTYPE');
      subset = s.slice(j + 1, end);
      j = s.indexOf('>', end);
    }
    if (j < 0 || j >= s.length) throw invalid('unterminated DOCTYPE');
    const rest = subset
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(
        /<!ENTITY\s+([A-Za-z_][\w.-]*)\s+(?:"([^"<&%]*)"|'([^'<&%]*)')\s*>/g,
        (_m, name: string, a?: string, b?: string) => {
          entities.set(name, a ?? b ?? '');
          return '';
        },
      );
    if (rest.trim() !== '') throw refused('its DOCTYPE declares external or parameter entities, which are not allowed');
    i = j + 1;
  };

  const readStartTag = () => {
    const m = NAME.exec(s.slice(i + 1, i + 257));
    if (!m) throw invalid('a malformed tag');
    const name = m[0];
    let j = i + 1 + name.length;
    const attrs: Array<[string, string]> = [];
    for (;;) {
      while (/\s/.test(s[j] ?? '')) j++;
      if (s[j] === '>' || (s[j] === '/' && s[j + 1] === '>')) break;
      if (j >= s.length) throw invalid('an unterminated tag');
      const an = NAME.exec(s.slice(j, j + 257));
      if (!an) throw invalid('a malformed attribute');
      j += an[0].length;
      while (/\s/.test(s[j] ?? '')) j++;
      if (s[j] !== '=') throw invalid('an attribute without a value');
      j++;
      while (/\s/.test(s[j] ?? '')) j++;
      const q = s[j];
      if (q !== '"' && q !== "'") throw invalid('an unquoted attribute value');
      const end = s.indexOf(q, j + 1);
      if (end < 0) throw invalid('an unterminated attribute value');
      const raw = s.slice(j + 1, end);
      if (raw.includes('<')) throw invalid('"<" in an attribute value');
      attrs.push([an[0], decode(raw)]);
      j = end + 1;
    }
    const selfClosing = s[j] === '/';
    i = j + (selfClosing ? 2 : 1);
    return { name, attrs, selfClosing };
  };

  const keepAttr = (name: string, value: string): string | null => {
    const local = localName(name);
    if (name === 'xmlns' || name.startsWith('xmlns:')) return value;
    if (name.toLowerCase() === 'xml:base' || local.startsWith('on')) return null;
    if (local === 'href' || local === 'src') {
      const v = value.trim();
      if (v.startsWith('#')) return v;
      const img = INLINE_IMAGE.exec(v);
      if (img) {
        inlineImages.push(Buffer.from(img[2]!.replace(/\s+/g, ''), 'base64'));
        return v;
      }
      return null;
    }
    if (value.includes('\\')) return null;
    if (/url\(|@import/i.test(value)) return sanitizeCss(value);
    return value;
  };

  while (i < s.length) {
    if (s.startsWith('<!--', i)) {
      const end = s.indexOf('-->', i + 4);
      if (end < 0) throw invalid('an unterminated comment');
      i = end + 3;
    } else if (s.startsWith('<![CDATA[', i)) {
      const end = s.indexOf(']]>', i + 9);
      if (end < 0) throw invalid('an unterminated CDATA section');
      const text = s.slice(i + 9, end);
      i = end + 3;
      if (!dropDepth && stack.length) out += escapeText(text);
    } else if (s.startsWith('<?', i)) {
      const end = s.indexOf('?>', i + 2);
      if (end < 0) throw invalid('an unterminated processing instruction');
      // <?xml-stylesheet?> loads CSS from elsewhere; the declaration is re-emitted above.
      if (!/^<\?xml\s/.test(s.slice(i, i + 6))) removed.push('processing instruction');
      i = end + 2;
    } else if (s.startsWith('<!DOCTYPE', i)) {
      if (sawRoot) throw invalid('a DOCTYPE after the root element');
      readDoctype();
    } else if (s.startsWith('</', i)) {
      const end = s.indexOf('>', i);
      if (end < 0) throw invalid('an unterminated end tag');
      const name = s.slice(i + 2, end).trim();
      if (stack.pop() !== name) throw invalid(`a mismatched end tag </${name.slice(0, 40)}>`);
      if (dropDepth) dropDepth--;
      else out += `</${name}>`;
      i = end + 1;
    } else if (s[i] === '<') {
      if (!sawRoot && stack.length === 0) {
        const root = NAME.exec(s.slice(i + 1, i + 257))?.[0];
        if (!root || localName(root) !== 'svg') throw invalid('the root element is not <svg>');
        sawRoot = true;
      } else if (stack.length === 0) throw invalid('content after the root element');
      const tag = readStartTag();
      if (!tag.selfClosing) stack.push(tag.name);
      const local = localName(tag.name);
      if (dropDepth || DROPPED_ELEMENTS.has(local)) {
        if (!dropDepth) removed.push(`<${local}>`);
        if (!tag.selfClosing) dropDepth++;
        continue;
      }
      if (local === 'style' && !tag.selfClosing) {
        // Collect the whole style sheet (text and CDATA) to judge it as one.
        const close = s.indexOf(`</${tag.name}`, i);
        if (close < 0) throw invalid('an unterminated <style>');
        const body = s
          .slice(i, close)
          .replace(
            /<!\[CDATA\[([\s\S]*?)\]\]>|<!--[\s\S]*?-->|([^<]+)/g,
            (_m, cdata?: string, text?: string) => cdata ?? (text ? decode(text) : ''),
          );
        if (/</.test(s.slice(i, close).replace(/<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->/g, '')))
          throw invalid('markup inside <style>');
        const css = sanitizeCss(body);
        i = close;
        if (css === null) {
          removed.push('<style> with @import, escapes or external url()');
          dropDepth++;
          continue;
        }
        if (css !== body) removed.push('external url() in <style>');
        out += `<${tag.name}${serializeAttrs(tag.attrs, keepAttr, removed)}>${escapeText(css)}`;
        continue;
      }
      out += `<${tag.name}${serializeAttrs(tag.attrs, keepAttr, removed)}${tag.selfClosing ? '/>' : '>'}`;
    } else {
      const end = s.indexOf('<', i);
      const raw = s.slice(i, end < 0 ? s.length : end);
      i = end < 0 ? s.length : end;
      if (stack.length === 0) {
        if (raw.trim() !== '') throw invalid('text outside the root element');
        continue;
      }
      if (!dropDepth) out += escapeText(decode(raw));
    }
  }
  if (!sawRoot) throw invalid('no <svg> element');
  if (stack.length) throw invalid('unclosed elements');
  return { svg: Buffer.from(out, 'utf8'), inlineImages, removed };
}

function serializeAttrs(
  attrs: Array<[string, string]>,
  keep: (name: string, value: string) => string | null,
  removed: string[],
): string {
  let out = '';
  for (const [name, value] of attrs) {
    const v = keep(name, value);
    if (v === null) removed.push(`attribute ${name}`);
    else out += ` ${name}="${escapeAttr(v)}"`;
  }
  return out;
}
