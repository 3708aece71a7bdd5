import { readFile, writeFile } from 'node:fs/promises';
import type { TimeStamper } from '../../signatures/cms';
import { appendSignaturePlaceholder, fillSignature } from '../../signatures/incremental';
import { out, type OutputFile, type PdfJob, type PreparedPdf } from './job';

/** Room for a time-stamp token with the authority's certificate chain. */
const TOKEN_ROOM = 16_384;

/**
 * A document time-stamp (ISO 32000-2 12.8.5, SubFilter ETSI.RFC3161): an incremental update whose /Contents is the
 * authority's token over the SHA-256 of the whole file but the hole; earlier signatures stay valid, and are
 * proved to have existed at the token's time.
 */
export async function timestampPdf(job: PdfJob, input: PreparedPdf, timeStamper: TimeStamper): Promise<OutputFile> {
  const placeholder = await appendSignaturePlaceholder(await readFile(input.path), {
    subFilter: 'ETSI.RFC3161',
    reserve: TOKEN_ROOM,
    date: new Date(),
  });
  const stamped = await fillSignature(placeholder, timeStamper);
  const file = out(job, 'timestamped.pdf');
  await writeFile(file, stamped);
  return { path: file, name: 'timestamped', pages: input.pages };
}
