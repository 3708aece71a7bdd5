import { writeFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { EngineError, invalidInput } from '../../errors';
import {
  SCREEN_LIMITS,
  type PageChecks,
  type PrintOptions,
  type ScreenshotOptions,
} from '../../operations/convert/interfaces';
import { toPdfOptions } from './print-options';

/**
 * What a render job makes of its loaded page: a PDF or an image. The job opens the page, loads it and waits; the
 * capture says how the page must be laid out (screen size, media type, extra delay) and writes the output. Its
 * options are checked when it is built, before the job takes a browser slot.
 */
export interface PageCapture {
  /** The screen the page is laid out on, set before it loads (absent: the context's); its device pixel ratio. */
  viewport?: { width: number; height: number; deviceScaleFactor?: number };
  /** Emulated once the page has loaded (absent: the capture's own default, print for a PDF, screen for an image). */
  media?: 'print' | 'screen';
  waitDelayMs?: number;
  checks: PageChecks;
  write(page: Page): Promise<void>;
}

/** A template's reference to a resource on the network (an absolute or scheme-relative URL in an attribute or CSS). */
const NETWORK_REFERENCE =
  /(?:\b(?:href|src|srcset)\s*=\s*["']?|url\(\s*["']?|@import\s+["'])\s*(?:[a-z][\w+.-]*:)?\/\//i;

export function pdfCapture(print: PrintOptions, output: string): PageCapture {
  const pdfOptions = toPdfOptions(print, output);
  return {
    // page.pdf prints with the print media type unless the screen one is emulated first.
    media: print.emulatedMediaType === 'screen' ? 'screen' : undefined,
    waitDelayMs: print.waitDelayMs,
    checks: print,
    write: async (page) => {
      try {
        await page.pdf(print.singlePage ? { ...pdfOptions, ...(await singleSheet(page, print)) } : pdfOptions);
      } catch (err) {
        // Chromium fails the whole print when a header or footer template asks for a resource from the network: the
        // caller's document, told as such.
        const remote = [print.headerTemplate, print.footerTemplate].some((t) => t && NETWORK_REFERENCE.test(t));
        if (!remote || !/Printing failed/i.test(String((err as Error)?.message))) throw err;
        throw new EngineError(
          'INVALID_DOCUMENT',
          'header.html/footer.html (headerTemplate/footerTemplate): Chromium could not print the page with them: ' +
            'a header or footer cannot load resources (stylesheets, images, fonts) from the network; put its CSS in ' +
            'a <style> element and its images in data: URLs',
          { details: { field: 'headerTemplate', reason: 'TEMPLATE_RESOURCES' } },
        );
      }
    },
  };
}

/** 96 CSS pixels to the inch (https://issues.chromium.org/issues/40267771#comment14). */
const CSS_PX_PER_INCH = 96;

/**
 * The paper of a single-page print: as tall as the laid-out content plus the top and bottom margins (in landscape,
 * where the paper turns, both sides fit the content, as Gotenberg does), and only the first sheet printed so no
 * rounding leaves a blank second one.
 */
async function singleSheet(page: Page, print: PrintOptions) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { cssContentSize } = (await cdp.send('Page.getLayoutMetrics')) as {
      cssContentSize: { width: number; height: number };
    };
    const m = print.margins;
    const tall = cssContentSize.height / CSS_PX_PER_INCH;
    const inches = (n: number) => `${n}in`;
    return print.landscape
      ? {
          width: inches(tall + m.top + m.bottom),
          height: inches(cssContentSize.width / CSS_PX_PER_INCH + m.left + m.right),
          pageRanges: '1',
        }
      : { height: inches(tall + m.top + m.bottom), pageRanges: '1' };
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

export function screenshotCapture(o: ScreenshotOptions, output: string): PageCapture {
  const side = (field: 'width' | 'height', v: number, max: number) => {
    if (!(Number.isInteger(v) && v >= SCREEN_LIMITS.minSide && v <= max))
      throw invalidInput(field, 'must be a whole number of pixels', `${SCREEN_LIMITS.minSide} to ${max}`);
  };
  side('width', o.width, SCREEN_LIMITS.maxWidth);
  side('height', o.height, SCREEN_LIMITS.maxHeight);
  if (o.quality !== undefined && !(Number.isInteger(o.quality) && o.quality >= 0 && o.quality <= 100))
    throw invalidInput('quality', 'must be a whole number', '0 to 100');
  const scale = o.deviceScaleFactor ?? 1;
  if (!(scale > 0 && scale <= SCREEN_LIMITS.maxScale))
    throw invalidInput('deviceScaleFactor', 'must be a number above 0', `up to ${SCREEN_LIMITS.maxScale}`);
  // Chromium draws nothing past 16384 device pixels either way.
  if (o.height * scale > SCREEN_LIMITS.maxHeight)
    throw invalidInput('deviceScaleFactor', `times height is over ${SCREEN_LIMITS.maxHeight} device pixels`);
  if (o.omitBackground && o.format === 'jpeg')
    throw invalidInput('omitBackground', 'needs an image format with transparency', 'png or webp');
  return {
    viewport: { width: o.width, height: o.height, ...(scale !== 1 ? { deviceScaleFactor: scale } : {}) },
    media: o.emulatedMediaType ?? 'screen',
    waitDelayMs: o.waitDelayMs,
    checks: o,
    async write(page) {
      // CDP rather than page.screenshot: Playwright writes neither WebP nor fast PNGs.
      const cdp = await page.context().newCDPSession(page);
      let { width, height } = o;
      let x = 0;
      let y = 0;
      if (o.selector) ({ x, y, width, height } = await elementBox(page, o.selector));
      else if (!o.clip) {
        const content = await page.evaluate(() => {
          const root = document.documentElement;
          return {
            width: Math.max(root.scrollWidth, document.body?.scrollWidth ?? 0),
            height: Math.max(root.scrollHeight, document.body?.scrollHeight ?? 0),
          };
        });
        width = Math.min(Math.max(width, Math.ceil(content.width)), SCREEN_LIMITS.maxWidth);
        height = Math.min(Math.max(height, Math.ceil(content.height)), Math.floor(SCREEN_LIMITS.maxHeight / scale));
      }
      const { data } = await cdp.send('Page.captureScreenshot', {
        format: o.format,
        ...(o.format === 'png' ? {} : { quality: o.quality ?? 90 }),
        // In device pixels: the page's ratio scales the image (the clip itself is in CSS pixels).
        clip: { x, y, width, height, scale },
        captureBeyondViewport: !o.clip || Boolean(o.selector),
        fromSurface: true,
        optimizeForSpeed: o.optimizeForSpeed ?? false,
      });
      await writeFile(output, Buffer.from(data, 'base64'));
    },
  };
}

/**
 * The page-space box of the first element matching `selector` (its viewport rectangle plus the scroll offset, as the
 * capture beyond the viewport takes it). Nothing matching, a selector the page cannot query, or an element without a
 * rendered box (display:none, zero area) is the caller's: 400, in Gotenberg's words.
 */
async function elementBox(page: Page, selector: string) {
  const box = await page
    .evaluate((s) => {
      const el = document.querySelector(s);
      if (!el) return null;
      const r = el.getBoundingClientRect();
      return { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height };
    }, selector)
    .catch(() => null);
  if (!box || !(box.width > 0 && box.height > 0))
    throw new EngineError(
      'INVALID_INPUT',
      `The selector '${selector}' (selector) matched no element with a visible box`,
      {
        details: { field: 'selector', reason: 'SELECTOR_NOT_FOUND' },
      },
    );
  return box;
}
