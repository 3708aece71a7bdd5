import { randomBytes } from 'node:crypto';
import type { ScreenshotOptions } from './interfaces';
import type { OutputFile, PdfJob } from '../pdf/job';
import { renderLimits, type RenderRequest } from './to-pdf';

/**
 * Screenshots of pages, through the same browser, asset sandbox and URL rules as the conversions to PDF (to-pdf.ts):
 * only the capture differs. Framework-free: routes build the source (an HTML file with its assets dir, a URL).
 */

const extension = { png: 'png', jpeg: 'jpg', webp: 'webp' } as const;

const out = (job: PdfJob, kind: string, format: ScreenshotOptions['format']) =>
  job.ws.file(`shot-${randomBytes(5).toString('hex')}-${kind}.${extension[format]}`);

export const imageExtension = (format: ScreenshotOptions['format']) => extension[format];

export async function htmlToImage(
  job: PdfJob,
  html: string,
  baseDir: string,
  shot: ScreenshotOptions,
  opts: RenderRequest,
): Promise<OutputFile> {
  const image = out(job, 'html', shot.format);
  const limits = renderLimits(job, opts, shot);
  await job.engines.run('screenshotHtml', (f) => f(html, image, { ...shot, ...limits, baseDir }, job.ctx), job.signal);
  return { path: image, name: 'screenshot' };
}

export async function urlToImage(
  job: PdfJob,
  url: string,
  shot: ScreenshotOptions & { allowPrivate: boolean },
  opts: RenderRequest,
): Promise<OutputFile> {
  const image = out(job, 'url', shot.format);
  const limits = renderLimits(job, opts, shot);
  await job.engines.run('screenshotUrl', (f) => f(url, image, { ...shot, ...limits }, job.ctx), job.signal);
  return { path: image, name: 'screenshot' };
}
