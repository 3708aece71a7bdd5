import { stat } from 'node:fs/promises';
import type { CompressionLevel } from './interfaces';
import { PdfJob, PreparedPdf, out } from './job';

export interface CompressionEstimate {
  level: CompressionLevel;
  estimatedSize: number;
  estimatedReduction: number;
  method: string;
}

/** Target resolution of each lossy level (Ghostscript /ebook and /screen); images above 1.5× it are downsampled. */
const levelDpi: Record<CompressionLevel, number | null> = { low: null, medium: 150, high: 72 };
const jpegBytesPerPixel: Record<CompressionLevel, number> = { low: 0, medium: 0.18, high: 0.1 };

export async function compressionAnalysis(job: PdfJob, input: PreparedPdf) {
  const [{ value: a }, { value: b }] = await Promise.all([
    job.engines.run('analyze', (f) => f(input.path, { text: false }, job.ctx), job.signal),
    job.engines.run('sizeBreakdown', (f) => f(input.path, job.ctx), job.signal),
  ]);
  // Low is measured, not guessed: a lossless rewrite is cheap.
  let low: number;
  try {
    const file = out(job, 'probe-low.pdf');
    await job.engines.run('compress', (f) => f(input.path, file, { level: 'low' }, job.ctx), job.signal);
    low = Math.min(b.total, (await stat(file)).size);
  } catch {
    low = b.total;
  }
  const lossy = (level: CompressionLevel): number => {
    const dpi = levelDpi[level]!;
    let images = 0;
    for (const img of a.images) {
      const ppi = Math.max(img.xPpi, img.yPpi) || dpi;
      const scale = ppi > dpi * 1.5 ? dpi / ppi : 1;
      const estimate =
        img.width * img.height * scale * scale * jpegBytesPerPixel[level] * (img.colorSpace === 'gray' ? 0.5 : 1);
      images += Math.min(img.bytes, estimate);
    }
    const rest = Math.max(0, low - b.images);
    return Math.min(b.total, Math.round(rest + images + 4096));
  };
  const estimates: CompressionEstimate[] = [
    { level: 'low', estimatedSize: low, estimatedReduction: 0, method: 'measured (lossless rewrite)' },
    { level: 'medium', estimatedSize: lossy('medium'), estimatedReduction: 0, method: 'estimated (images at 150 dpi)' },
    { level: 'high', estimatedSize: lossy('high'), estimatedReduction: 0, method: 'estimated (images at 72 dpi)' },
  ];
  for (const e of estimates)
    e.estimatedReduction = b.total ? Math.round((1 - e.estimatedSize / b.total) * 1000) / 10 : 0;
  const imageShare = b.total ? b.images / b.total : 0;
  const maxPpi = Math.max(0, ...a.images.map((i) => Math.max(i.xPpi, i.yPpi)));
  let recommendation: CompressionLevel = 'low';
  let reason = 'Mostly text and vector content: a lossless rewrite keeps quality; lossy levels would gain little.';
  if (imageShare > 0.3 && maxPpi > 225) {
    recommendation = 'medium';
    reason = `Images make ${Math.round(imageShare * 100)} % of the file at up to ${Math.round(maxPpi)} ppi: downsampling to 150 dpi keeps them readable on screen and in print drafts.`;
  } else if (imageShare > 0.3) {
    recommendation = 'high';
    reason = `Images make ${Math.round(imageShare * 100)} % of the file and are already at ${Math.round(maxPpi)} ppi or less: stronger JPEG compression is where the gain is.`;
  }
  return {
    originalSize: b.total,
    breakdown: b,
    images: { count: a.images.length, bytes: b.images, maxPpi: Math.round(maxPpi) },
    fonts: { count: a.fonts.length, embedded: a.fonts.filter((f) => f.embedded).length, bytes: b.fonts },
    estimates,
    recommendation,
    reason,
  };
}
