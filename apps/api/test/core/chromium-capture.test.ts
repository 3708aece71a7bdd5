import { describe, expect, it } from 'vitest';
import { EngineError } from '../../src/core/errors';
import type { PrintOptions, ScreenshotOptions } from '../../src/core/operations/convert/interfaces';
import { pdfCapture, screenshotCapture } from '../../src/core/modules/chromium/capture';
import { toPdfOptions } from '../../src/core/modules/chromium/print-options';

/** The captures' options, checked before a render takes a browser slot (the renders themselves: chromium.test.ts). */
const letter: PrintOptions = {
  paperWidth: 8.5,
  paperHeight: 11,
  margins: { top: 0.5, right: 0.5, bottom: 0.5, left: 0.5 },
  landscape: false,
  printBackground: false,
  scale: 1,
};
const shot: ScreenshotOptions = { format: 'png', width: 800, height: 600, clip: false };

const refusal = (make: () => unknown) => {
  try {
    make();
  } catch (err) {
    expect(err).toBeInstanceOf(EngineError);
    return err as EngineError;
  }
  throw new Error('not refused');
};

describe('pdfCapture', () => {
  it('prints with the page checks and media it was given', () => {
    const capture = pdfCapture({ ...letter, emulatedMediaType: 'screen', waitForExpression: 'window.ready' }, 'x.pdf');
    expect(capture).toMatchObject({ media: 'screen', checks: { waitForExpression: 'window.ready' } });
    expect(capture.viewport).toBeUndefined();
  });

  it('header and footer templates turn on displayHeaderFooter; one alone leaves the other margin empty', () => {
    expect(toPdfOptions(letter, 'x.pdf').displayHeaderFooter).toBeUndefined();
    expect(toPdfOptions({ ...letter, footerTemplate: '<p>F</p>' }, 'x.pdf')).toMatchObject({
      displayHeaderFooter: true,
      headerTemplate: '<span></span>',
      footerTemplate: '<p>F</p>',
    });
  });
});

describe('screenshotCapture', () => {
  it('lays the page out on the asked screen, in screen media by default', () => {
    expect(screenshotCapture({ ...shot, width: 320, height: 200 }, 'x.png')).toMatchObject({
      viewport: { width: 320, height: 200 },
      media: 'screen',
    });
    expect(screenshotCapture({ ...shot, emulatedMediaType: 'print' }, 'x.png').media).toBe('print');
  });

  it('refuses sizes, qualities and backgrounds it cannot honour, naming the field', () => {
    for (const [options, field] of [
      [{ width: 15 }, 'width'],
      [{ width: 4097 }, 'width'],
      [{ height: 16385 }, 'height'],
      [{ width: 100.5 }, 'width'],
      [{ format: 'jpeg', quality: 101 }, 'quality'],
      [{ format: 'jpeg', omitBackground: true }, 'omitBackground'],
    ] as const) {
      const e = refusal(() => screenshotCapture({ ...shot, ...options }, 'x.png'));
      expect(e.code).toBe('INVALID_INPUT');
      expect(e.message.startsWith(`${field}: `), e.message).toBe(true);
    }
  });
});
