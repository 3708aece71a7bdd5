import { stat, copyFile } from 'node:fs/promises';
import type { CompressionLevel } from './interfaces';
import { OutputFile, PdfJob, PreparedPdf, out } from './job';

export interface CompressResult extends OutputFile {
  originalSize: number;
  compressedSize: number;
  /** False when no engine made the file smaller: the original is returned. */
  reduced: boolean;
  engine: string;
}

export async function compressPdf(job: PdfJob, input: PreparedPdf, level: CompressionLevel): Promise<CompressResult> {
  const file = out(job, 'compressed.pdf');
  const originalSize = (await stat(input.path)).size;
  const { engine } = await job.engines.run('compress', (f) => f(input.path, file, { level }, job.ctx), job.signal);
  const size = (await stat(file)).size;
  if (size >= originalSize) {
    // Never a larger file: hand back the original bytes.
    await copyFile(input.path, file);
    return {
      path: file,
      name: 'compressed',
      pages: input.pages,
      originalSize,
      compressedSize: originalSize,
      reduced: false,
      engine,
    };
  }
  return {
    path: file,
    name: 'compressed',
    pages: input.pages,
    originalSize,
    compressedSize: size,
    reduced: true,
    engine,
  };
}
