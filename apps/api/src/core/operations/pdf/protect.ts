import { EngineError } from '../../errors';
import type { OpContext } from '../../interfaces';
import type { PdfPermissions } from './interfaces';
import { assertPdf } from '../../pdf-sniff';
import { OutputFile, PdfJob, PreparedPdf, SourceFile, out } from './job';
import { Speculation, sameInputs, speculate } from './speculation';

export interface ProtectOptions {
  userPassword?: string;
  ownerPassword?: string;
  permissions: PdfPermissions;
}

function checkProtect(opts: ProtectOptions): void {
  if (!opts.userPassword && !opts.ownerPassword) {
    throw new EngineError('INVALID_INPUT', 'userPassword, ownerPassword: give at least one password', {
      details: { field: 'userPassword' },
    });
  }
}

async function encryptTo(job: PdfJob, source: string, opts: ProtectOptions, ctx: OpContext): Promise<string> {
  const file = out(job, 'protected.pdf');
  await job.engines.run(
    'encrypt',
    (f) =>
      f(
        source,
        file,
        {
          userPassword: opts.userPassword ?? '',
          ownerPassword: opts.ownerPassword ?? '',
          permissions: opts.permissions,
        },
        ctx,
      ),
    ctx.signal,
  );
  return file;
}

/** Start encrypting the raw upload while it is checked (see Speculation). */
export async function speculateProtect(
  job: PdfJob,
  file: SourceFile,
  opts: ProtectOptions,
): Promise<Speculation<string> | undefined> {
  checkProtect(opts);
  if (job.engines.options.speculate === false) return undefined;
  await assertPdf(file.path, `"${file.filename}"`);
  return speculate(job, [file.path], (ctx) => encryptTo(job, file.path, opts, ctx));
}

export async function protectPdf(
  job: PdfJob,
  input: PreparedPdf,
  opts: ProtectOptions,
  spec?: Speculation<string>,
): Promise<OutputFile> {
  checkProtect(opts);
  if (spec && sameInputs(spec, [input])) return { path: await spec.result, name: 'protected', pages: input.pages };
  spec?.cancel();
  return { path: await encryptTo(job, input.path, opts, job.ctx), name: 'protected', pages: input.pages };
}
