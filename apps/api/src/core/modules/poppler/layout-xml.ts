import type { LayoutImage, LayoutText, PageLayout } from '../../operations/pdf/interfaces';

/**
 * `pdftohtml -xml -zoom 1` output: per page its fontspecs (size, family), its text lines (box in points from the top
 * left, a font id, <b>/<i> markup) and its images. Fonts whose name says Bold/Italic count as such even unmarked.
 */
const attr = (tag: string, name: string) => {
  const m = new RegExp(`\\b${name}="([^"]*)"`).exec(tag);
  return m ? m[1]! : '';
};
const num = (tag: string, name: string) => Number(attr(tag, name)) || 0;

const unescape = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[\da-f]+);/gi, (_, e: string) => {
    const k = e.toLowerCase();
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (named[k]) return named[k];
    return String.fromCodePoint(k.startsWith('#x') ? parseInt(k.slice(2), 16) : Number(k.slice(1)));
  });

interface FontSpec {
  size: number;
  family: string;
}

export function parseLayoutXml(xml: string): PageLayout[] {
  const pages: PageLayout[] = [];
  const fonts = new Map<string, FontSpec>();
  const pageRe = /<page\b([^>]*)>([\s\S]*?)<\/page>/g;
  let pm: RegExpExecArray | null;
  while ((pm = pageRe.exec(xml))) {
    const head = pm[1]!;
    const body = pm[2]!;
    // Font ids are numbered across the document: a page may use a font first declared on an earlier one.
    for (const fm of body.matchAll(/<fontspec\b([^>]*)\/>/g)) {
      fonts.set(attr(fm[1]!, 'id'), { size: num(fm[1]!, 'size'), family: attr(fm[1]!, 'family') });
    }
    const texts: LayoutText[] = [];
    for (const tm of body.matchAll(/<text\b([^>]*)>([\s\S]*?)<\/text>/g)) {
      const a = tm[1]!;
      const inner = tm[2]!;
      const text = unescape(inner.replace(/<[^>]+>/g, '')).replace(/\s+/g, ' ');
      if (!text.trim()) continue;
      const font = fonts.get(attr(a, 'font')) ?? { size: num(a, 'height'), family: '' };
      const plainLength = text.trim().length;
      const markedLength = (tag: string) =>
        [...inner.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))]
          .map((m) => unescape(m[1]!.replace(/<[^>]+>/g, '')).trim().length)
          .reduce((s, n) => s + n, 0);
      texts.push({
        text,
        x: num(a, 'left'),
        y: num(a, 'top'),
        width: num(a, 'width'),
        height: num(a, 'height'),
        size: font.size,
        font: font.family.replace(/^[A-Z]{6}\+/, ''),
        // Most of the line marked: a bold word inside a sentence does not make the line a heading.
        bold: /bold|black|heavy|semibold/i.test(font.family) || markedLength('b') >= plainLength * 0.8,
        italic: /italic|oblique/i.test(font.family) || markedLength('i') >= plainLength * 0.8,
      });
    }
    const images: LayoutImage[] = [...body.matchAll(/<image\b([^>]*)\/?>/g)].map((im) => ({
      x: num(im[1]!, 'left'),
      y: num(im[1]!, 'top'),
      width: num(im[1]!, 'width'),
      height: num(im[1]!, 'height'),
    }));
    pages.push({ page: num(head, 'number'), width: num(head, 'width'), height: num(head, 'height'), texts, images });
  }
  return pages;
}
