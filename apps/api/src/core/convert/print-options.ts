import { ZHtmlFields, paperSizes, type TPrintFields } from '@docflow/contracts';
import type { PrintOptions } from '../operations/convert/interfaces';

/** The form's paper and margin fields as Chromium takes them (inches; custom sizes win over the named size). */
export function printOptions(f: TPrintFields): PrintOptions {
  const [w, h] = f.paperWidth && f.paperHeight ? [f.paperWidth, f.paperHeight] : paperSizes[f.paperSize];
  return {
    paperWidth: w,
    paperHeight: h,
    margins: {
      top: f.marginTop ?? f.margin,
      right: f.marginRight ?? f.margin,
      bottom: f.marginBottom ?? f.margin,
      left: f.marginLeft ?? f.margin,
    },
    landscape: f.landscape,
    printBackground: f.printBackground,
    scale: f.scale,
  };
}

/** The print settings of a route that takes none (auto-to-pdf, batch): the HTML route's defaults. */
export const defaultPrintOptions = (): PrintOptions => printOptions(ZHtmlFields.parse({}));
