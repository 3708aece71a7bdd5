import sharp from 'sharp';
import { defineModule, type EngineContext } from '../../engine-module';
import type { Engine } from '../../interfaces';
import { ZImagesConfig, type ImagesConfig } from './config';
import { convertImagesToPdf } from './images-to-pdf';

export const imagesModule = defineModule<ImagesConfig>({
  id: 'images',
  description:
    'sharp (libvips) and an in-process PDF writer: JPEG, PNG, GIF, WebP, TIFF, BMP, SVG, AVIF to PDF, a page per image',
  license: 'Apache-2.0 (sharp), LGPL-2.1+ (libvips)',
  envPrefix: 'IMAGES',
  configSchema: ZImagesConfig,
  operations: ['imagesToPdf'],
  async healthCheck() {
    // A one-pixel round trip proves the native binding loads and can encode.
    await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    return { ok: true, version: `sharp ${sharp.versions.sharp ?? '?'}, libvips ${sharp.versions.vips}` };
  },
  create(config: ImagesConfig, ctx: EngineContext): Engine {
    return {
      id: 'images',
      // CPU-bound work in this process still takes a slot of the shared limiter, like a tool would.
      imagesToPdf: (inputs, output, opts, c) =>
        ctx.tools.limiter.run(() => convertImagesToPdf(inputs, output, opts, c, config, ctx.tools.timeoutMs), c.signal),
    };
  },
});
