import { z } from 'zod';
import { defineModule } from '../../engine-module';
import type { Engine } from '../../interfaces';
import { mergeByCopy } from './merge';
import { declineUnforeseen } from './limits';
import { countPages, pageBoxes } from './scan';
import { renderScanPages } from './scan-pages';

const ZConfig = z.object({});
type PdfScanConfig = z.infer<typeof ZConfig>;

/**
 * Page counts and page boxes read from the file's structure in this process, in well under a millisecond where a
 * tool takes 10-25 ms to start, merges made by copying the pages' objects as written (merge.ts), and a scan's pages
 * for OCR taken from their images rather than rendered (scan-pages.ts). It handles well-formed, unencrypted files; anything else (encryption, damage, odd
 * structures, limits reached) is declined with UNSUPPORTED_OPERATION, and the next engine of the chain decides.
 */
export const pdfScanModule = defineModule<PdfScanConfig>({
  id: 'pdf-scan',
  description:
    'in-process PDF structure reader: page count, page boxes, merge by copy and scanned pages as gray images without starting a tool',
  license: 'Apache-2.0',
  envPrefix: 'PDF_SCAN',
  configSchema: ZConfig,
  operations: ['countPages', 'pageBoxes', 'merge', 'render'],
  async healthCheck() {
    return { ok: true };
  },
  create(): Engine {
    return {
      id: 'pdf-scan',
      countPages: (input, opts, c) => countPages(input, { stopAfter: opts.stopAfter }, c.signal),
      pageBoxes: (input, opts, c) => pageBoxes(input, { pages: opts.pages }, c.signal),
      merge: (inputs, output, c) => declineUnforeseen(() => mergeByCopy(inputs, output, c.signal)),
      render: (input, outDir, opts, c) => renderScanPages(input, outDir, opts, c.signal),
    };
  },
});
