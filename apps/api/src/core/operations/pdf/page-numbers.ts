import { buildPageNumberStamp, type PageNumberSpec } from '../../pdf/stamp';
import { PdfJob, PreparedPdf } from './job';
import { stampPages } from './stamp-pages';

export const numberPages = (job: PdfJob, input: PreparedPdf, spec: PageNumberSpec, pagesSpec: string | undefined) =>
  stampPages(job, input, pagesSpec, 'numbered', (boxes, stamp) =>
    buildPageNumberStamp(boxes, input.pages, spec, stamp),
  );
