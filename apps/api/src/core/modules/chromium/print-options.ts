import type { Page } from 'playwright-core';
import { invalidInput } from '../../errors';
import type { PrintOptions } from '../../operations/convert/interfaces';

type PdfOptions = NonNullable<Parameters<Page['pdf']>[0]>;

const inches = (n: number) => `${n}in`;

/**
 * PrintOptions as page.pdf takes them. The paper size is the caller's: a stylesheet's `@page { size }` does not
 * override it unless asked (preferCssPageSize), so `paperSize` and `landscape` mean the same for every document;
 * `@page` margins and page breaks still apply.
 */
export function toPdfOptions(p: PrintOptions, output: string): PdfOptions {
  const positive = (field: string, v: number, max: number) => {
    if (!(Number.isFinite(v) && v > 0 && v <= max))
      throw invalidInput(field, `must be a number above 0 and at most ${max}`);
  };
  positive('paperWidth', p.paperWidth, 200);
  positive('paperHeight', p.paperHeight, 200);
  if (!(p.scale >= 0.1 && p.scale <= 2)) throw invalidInput('scale', 'out of range', '0.1 to 2');
  const m = p.margins;
  for (const [k, v] of Object.entries(m)) {
    if (!(Number.isFinite(v) && v >= 0))
      throw invalidInput(`margin${k[0]!.toUpperCase()}${k.slice(1)}`, 'must be 0 or more');
  }
  const [w, h] = p.landscape ? [p.paperHeight, p.paperWidth] : [p.paperWidth, p.paperHeight];
  if (m.left + m.right >= w || m.top + m.bottom >= h) throw invalidInput('margins', 'leave no room on the page');
  return {
    path: output,
    width: inches(p.paperWidth),
    height: inches(p.paperHeight),
    landscape: p.landscape,
    printBackground: p.printBackground,
    scale: p.scale,
    margin: { top: inches(m.top), right: inches(m.right), bottom: inches(m.bottom), left: inches(m.left) },
    preferCSSPageSize: p.preferCssPageSize ?? false,
    outline: p.outline ?? false,
    tagged: true,
    // Either template alone: the other margin stays empty rather than showing Chromium's date and title.
    ...(p.headerTemplate !== undefined || p.footerTemplate !== undefined
      ? {
          displayHeaderFooter: true,
          headerTemplate: p.headerTemplate ?? '<span></span>',
          footerTemplate: p.footerTemplate ?? '<span></span>',
        }
      : {}),
  };
}
