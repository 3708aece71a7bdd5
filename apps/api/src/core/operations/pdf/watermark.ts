import { buildWatermarkStamp, type WatermarkSpec } from '../../pdf/stamp';
import { PdfJob, PreparedPdf } from './job';
import { stampPages } from './stamp-pages';

/** `under`: drawn beneath the page's content (Gotenberg's watermark) rather than over it (its stamp). */
export const watermarkPdf = (
  job: PdfJob,
  input: PreparedPdf,
  spec: WatermarkSpec,
  pagesSpec: string | undefined,
  opts: { under?: boolean } = {},
) =>
  stampPages(
    job,
    input,
    pagesSpec,
    'watermarked',
    (boxes, stamp) => buildWatermarkStamp(boxes, spec, stamp),
    opts.under,
  );
