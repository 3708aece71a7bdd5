import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { defineModule, type EngineContext } from '../../engine-module';
import { EngineError } from '../../errors';
import type { Engine, OpContext } from '../../interfaces';
import type { OfficeConverter, OfficeConvertOptions } from '../../operations/convert/interfaces';
import { ZLibreOfficeConfig, type LibreOfficeConfig } from './config';
import { helperError, invalidDocument, lostError } from './errors';
import { stageJob } from './handover';
import { InstanceLost, type OfficeInstance, type OfficeJob } from './instance';
import { OfficePool } from './pool';
import { accountGate, resolveAccount } from '../../tool-user';
import { waitingCount } from '../../waiting-count';

/** The engine object, with its pool visible to tests and to a future /health detail. */
export interface LibreOfficeEngine extends Engine {
  readonly id: 'libreoffice';
  readonly pool: OfficePool;
  convertOffice: OfficeConverter['convertOffice'];
  close(): Promise<void>;
}

/** A PDF that LibreOffice said it wrote: present, not empty, and a PDF. */
async function checkPdf(file: string, kind: OfficeConvertOptions['kind']): Promise<void> {
  const size = await stat(file).then(
    (s) => s.size,
    () => -1,
  );
  if (size <= 0) throw invalidDocument(kind, new Error(`libreoffice: no output (${size < 0 ? 'missing' : 'empty'})`));
  const fh = await open(file, 'r');
  try {
    const head = Buffer.alloc(5);
    await fh.read(head, 0, 5, 0);
    if (head.toString('latin1') !== '%PDF-')
      throw new EngineError('ENGINE_FAILED', 'The document could not be processed', {
        cause: new Error('libreoffice: output is not a PDF'),
      });
  } finally {
    await fh.close();
  }
}

export function createLibreOfficeEngine(config: LibreOfficeConfig, ctx: EngineContext): LibreOfficeEngine {
  const pool = new OfficePool({
    python: config.PYTHON,
    soffice: config.BIN,
    startupTimeoutMs: config.STARTUP_TIMEOUT_MS,
    size: config.INSTANCES,
    warm: config.WARM_INSTANCES,
    idleMs: config.IDLE_MS,
    maxJobs: config.MAX_JOBS,
    maxRssBytes: config.MAX_RSS_MB * 1_048_576,
    noNetwork: ctx.noNetwork ?? false,
    toolUser: ctx.toolUser,
    accounts: ctx.accounts,
    toolEnv: ctx.toolEnv,
  });
  const timeoutMs = config.TIMEOUT_MS || ctx.tools.timeoutMs;
  const memoryLimit = config.JOB_MEMORY_MB * 1_048_576;

  // Conversions waiting for a processing slot; the pool counts those waiting for an instance.
  const waiting = waitingCount();
  const convertOffice = (input: string, output: string, opts: OfficeConvertOptions, c: OpContext): Promise<void> =>
    // Through the server's limiter: a conversion holds a processing slot like any tool, and a full queue says so.
    waiting.through(
      // The request's account with the slot, as for any tool (run-tool.ts).
      (work) => ctx.tools.limiter.run(work, c.signal, undefined, accountGate(c.runAs)),
      () =>
        pool.run(async (inst) => {
          const job = { ...opts, input: path.resolve(input), output: path.resolve(output) };
          // A missing input is the server's fault, not the document's: say so before LibreOffice calls it unreadable.
          const { size } = await stat(job.input).catch((err: unknown) => {
            throw new EngineError('ENGINE_FAILED', 'The document could not be processed', { cause: err });
          });
          // The instance reaches no workspace: the input is handed to it, and its PDF taken back (handover.ts).
          const runAs = await resolveAccount(c.runAs, c.signal);
          // An input straight in the workspace (an upload: the usual case) is read here without following a link at
          // its name: the workspace itself cannot be swapped by its account (its parent is root's). One deeper, a
          // folder on the way could be, so it is read as the request's account.
          const inWorkspace = path.dirname(job.input) === path.dirname(path.resolve(c.scratch));
          const readAs =
            runAs && !inWorkspace
              ? async (file: string) =>
                  (
                    await ctx.tools.run('cat', ['--', file], {
                      runAs,
                      signal: c.signal,
                      limiter: null,
                      maxStdout: size + 1,
                    })
                  ).stdout
              : null;
          const staged = await stageJob(inst.stage!, inst.user, job.input, job.output, readAs);
          try {
            await convertStaged(inst, { ...job, input: staged.input, output: staged.output }, opts, c);
            await staged.collect(job.output, runAs);
          } finally {
            await staged.dispose();
          }
          await checkPdf(job.output, opts.kind);
        }, c.signal),
    );

  /** One job on an instance, its failure named as the caller should see it. */
  async function convertStaged(inst: OfficeInstance, job: OfficeJob, opts: OfficeConvertOptions, c: OpContext) {
    // The plan's deadline when it is the shorter: past it, the document is too much for the plan.
    const planBound = opts.timeoutMs !== undefined && opts.timeoutMs < timeoutMs;
    const deadline = planBound ? opts.timeoutMs! : timeoutMs;
    let r;
    try {
      r = await inst.convert(job, deadline, c.signal, memoryLimit);
    } catch (err) {
      if (err instanceof InstanceLost)
        throw lostError(err, { timeoutMs: deadline, planBound, memoryLimit }, inst.stderr);
      throw err;
    }
    if (!r.ok) throw helperError(r, opts.kind);
  }

  return {
    id: 'libreoffice',
    pool,
    convertOffice,
    close: () => pool.close(),
    status: () => {
      const st = pool.status();
      return { ...st, details: { ...st.details, queued: waiting.count + Number(st.details.waiting ?? 0) } };
    },
    warm: () => pool.warm(),
  };
}

/**
 * LibreOffice, kept warm: office documents (Word, Excel, PowerPoint, OpenDocument, RTF, text, CSV) to PDF. A small
 * pool of soffice processes, each with its own profile, driven by a Python UNO helper over stdin/stdout: 30-200 ms a
 * document where a cold `soffice --convert-to` costs 1.6-2 s. Macros never run and linked content is never fetched;
 * an instance that hangs, crashes or grows too large is killed and replaced without touching the others.
 */
export const libreofficeModule = defineModule<LibreOfficeConfig>({
  id: 'libreoffice',
  aliases: ['soffice'],
  description: 'LibreOffice (warm soffice pool over UNO): office documents to PDF',
  license: 'MPL-2.0',
  envPrefix: 'LIBREOFFICE',
  configSchema: ZLibreOfficeConfig,
  operations: ['convertOffice'],
  async healthCheck(config, ctx) {
    const r = await ctx.tools.run(config.BIN, ['--version'], { limiter: null, timeoutMs: 10_000 });
    return { ok: true, version: /LibreOffice (\S+)/.exec(r.stdout.toString())?.[1] };
  },
  create: (config, ctx) => createLibreOfficeEngine(config, ctx),
});
