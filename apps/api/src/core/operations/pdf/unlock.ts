import { EngineError } from '../../errors';
import { OutputFile, PdfJob, PreparedPdf } from './job';

/** `input` was prepared with its password (decrypted by preparePdf); an unencrypted upload is refused. */
export async function unlockPdf(job: PdfJob, input: PreparedPdf): Promise<OutputFile> {
  if (!input.wasEncrypted) {
    throw new EngineError('INVALID_INPUT', 'file: this PDF is not encrypted; there is nothing to unlock', {
      details: { field: 'file' },
    });
  }
  return { path: input.path, name: 'unlocked', pages: input.pages };
}
