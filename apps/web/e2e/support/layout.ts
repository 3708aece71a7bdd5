import type { Page } from 'playwright-core';
import en from '../../src/i18n/locales/en.json';
import fr from '../../src/i18n/locales/fr.json';

export type Lang = 'en' | 'fr';
const catalogues: Record<Lang, unknown> = { en, fr };

/** A catalogue text by its dotted key, `{{name}}` placeholders filled: what the page must show in that language. */
export function text(lang: Lang, key: string, values: Record<string, string | number> = {}): string {
  let node: unknown = catalogues[lang];
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== 'string') throw new Error(`no text ${key} in the ${lang} catalogue`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));
}

/**
 * What does not fit on the page, measured in the browser:
 * - the document wider than the window (the page scrolls sideways);
 * - an element crossing the edge of its card ([data-card]) where no scroll area of the card holds it;
 * - a table cell whose content is cut (wider than the cell, clipped or ellipsed);
 * - a badge ([data-badge]) wrapped onto several lines;
 * - with `scrollersMayScroll` false (desktop widths), a scroll area inside a card wider than its box: a table that
 *   hides columns behind a sideways scroll where there is room. Code blocks (<pre>) may always scroll.
 * Each problem names the element by its tag, classes and first words, so a failure says where to look.
 */
export async function layoutProblems(page: Page, opts: { scrollersMayScroll: boolean }): Promise<string[]> {
  return page.evaluate(({ scrollersMayScroll }) => {
    const problems: string[] = [];
    const describe = (el: Element) =>
      `<${el.tagName.toLowerCase()} class="${(el.getAttribute('class') ?? '').slice(0, 80)}"> "${(el.textContent ?? '')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 40)}"`;
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) return false;
      const s = getComputedStyle(el);
      return s.visibility !== 'hidden' && s.display !== 'none' && s.position !== 'fixed';
    };
    const scrollsX = (el: Element) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);

    const doc = document.documentElement;
    if (doc.scrollWidth > window.innerWidth) {
      // Name the outermost elements that stick out (not inside a scroll area): where to look.
      const out = [...document.body.querySelectorAll('*')].filter((el) => {
        if (!visible(el) || el.getBoundingClientRect().right <= window.innerWidth + 1) return false;
        for (let p = el.parentElement; p && p !== document.body; p = p.parentElement)
          if (scrollsX(p) || p.getBoundingClientRect().right > window.innerWidth + 1) return false;
        return true;
      });
      problems.push(
        `the document is ${doc.scrollWidth}px wide in a ${window.innerWidth}px window: ${out.slice(0, 3).map(describe).join(', ')}`,
      );
    }

    for (const card of document.querySelectorAll('[data-card]')) {
      if (!visible(card)) continue;
      const box = card.getBoundingClientRect();
      for (const el of card.querySelectorAll('*')) {
        if (!visible(el)) continue;
        // Inside a scroll area of the card: the area is judged, not what it scrolls.
        let scroller: Element | null = el.parentElement;
        while (scroller && scroller !== card && !scrollsX(scroller)) scroller = scroller.parentElement;
        if (scroller && scroller !== card) continue;
        const r = el.getBoundingClientRect();
        if (r.right > box.right + 1 || r.left < box.left - 1)
          problems.push(
            `${describe(el)} crosses its card (${Math.round(r.left)}–${Math.round(r.right)} outside ${Math.round(box.left)}–${Math.round(box.right)})`,
          );
      }
      if (!scrollersMayScroll)
        for (const el of card.querySelectorAll('*')) {
          if (el.tagName === 'PRE' || !scrollsX(el) || !visible(el)) continue;
          if (el.scrollWidth > el.clientWidth + 1)
            problems.push(`${describe(el)} scrolls sideways: ${el.scrollWidth}px of content in ${el.clientWidth}px`);
        }
    }
    for (const cell of document.querySelectorAll('td, th')) {
      if (!visible(cell)) continue;
      for (const el of [cell, ...cell.querySelectorAll('*')]) {
        if (!visible(el) || el.closest('.sr-only')) continue;
        const s = getComputedStyle(el);
        const clips = s.overflowX === 'hidden' || s.overflowX === 'clip' || s.textOverflow === 'ellipsis';
        if (clips && el.scrollWidth > el.clientWidth + 1)
          problems.push(`${describe(el)} is cut: ${el.scrollWidth}px of content in ${el.clientWidth}px`);
      }
    }
    // A badge is one line: "Email non vérifié" wrapped into a three-line pill is a badge without room.
    for (const badge of document.querySelectorAll('[data-badge]')) {
      if (!visible(badge)) continue;
      const lineHeight = parseFloat(getComputedStyle(badge).lineHeight) || 16;
      if (badge.getBoundingClientRect().height > 1.8 * lineHeight)
        problems.push(`${describe(badge)} wraps onto several lines`);
    }
    return [...new Set(problems)];
  }, opts);
}
