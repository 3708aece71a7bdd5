import { EngineError } from './errors';
import { aborted, type Limiter } from './limiter';
import { localSpawner, type ProcessSpawner } from './spawn-process';
import type { ToolEnvBase } from './tool-env';
import { accountGate, resolveAccount, type ToolAccount, type ToolUser } from './tool-user';

export interface RunToolOptions {
  /** Kill the whole process group after this long (TIMEOUT). */
  timeoutMs?: number;
  /** Kill the process group when the request is cancelled (ABORTED). */
  signal?: AbortSignal;
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Bytes of stdout kept; past it the tool is killed (default 32 MiB). */
  maxStdout?: number;
  /** 'error' (default): OUTPUT_TOO_LARGE. 'truncate': keep what was read, stop the tool, report `truncated`. */
  onStdoutOverflow?: 'error' | 'truncate';
  /** Exit codes counted as success (default [0]). */
  okExitCodes?: number[];
  stdin?: Buffer | string;
  /** Concurrency cap and queue; `null` runs at once (health checks). */
  limiter?: Limiter | null;
  /** Resource ceilings applied with prlimit(1): address space and largest file written. */
  memoryLimitBytes?: number;
  fileSizeLimitBytes?: number;
  /**
   * false: without the ceilings, for a tool that reserves far more address space than it uses (Chromium). Every
   * other tool keeps them: they stop decompression bombs, and in the tool host they cost nothing (tool-host.ts).
   */
  rlimits?: boolean;
  /** Where the process is started (default: in this process). */
  spawner?: ProcessSpawner;
  /** false: start the tool in a network namespace of its own (core/isolation.ts). Default: the runner's setting. */
  network?: boolean;
  /**
   * Run the tool as this unprivileged account (core/tool-user.ts): the request's leased one (OpContext.runAs), leased
   * once the tool holds its slot when it is still to be.
   * Unset or null: the runner's base account (which owns no workspace).
   */
  runAs?: ToolAccount;
}

export interface ToolResult {
  stdout: Buffer;
  stderr: string;
  exitCode: number;
  truncated: boolean;
  ms: number;
}

/** A tool that exited with an unexpected code or a signal; `stderr` is for logs and for classifying the failure. */
export class ToolFailedError extends EngineError {
  constructor(
    readonly tool: string,
    readonly exitCode: number | null,
    readonly stderr: string,
    readonly killSignal: string | null,
    readonly stdout: Buffer = Buffer.alloc(0),
  ) {
    super('ENGINE_FAILED', 'The document could not be processed', {
      cause: new Error(`${tool} exited with ${killSignal ?? exitCode}: ${stderr.slice(-2000)}`),
    });
    this.name = 'ToolFailedError';
    this.documentFault = true;
  }
}

const DEFAULT_MAX_STDOUT = 32 * 1024 * 1024;

/**
 * Run an external tool: argument vector only (never a shell), its own process group (so a timeout kills what it
 * spawned too), stdout capped, stderr kept for diagnosis, optional rlimits, and a slot of the shared limiter. The
 * process is started by `opts.spawner` (the tool host in the server; in this process by default).
 */
export async function runTool(cmd: string, args: string[], opts: RunToolOptions = {}): Promise<ToolResult> {
  // The request's account is taken with the slot (a request waiting for its turn holds none; one waiting for an
  // account waits in the queue): tool-user.ts, ToolAccount.
  const exec = async () => execute(cmd, args, { ...opts, runAs: await resolveAccount(opts.runAs, opts.signal) });
  return opts.limiter ? opts.limiter.run(exec, opts.signal, undefined, accountGate(opts.runAs)) : exec();
}

/** prlimit(1) arguments for the ceilings (the tool host is started with the same: tool-host.ts). */
export function prlimitArgs(o: Pick<RunToolOptions, 'memoryLimitBytes' | 'fileSizeLimitBytes'>): string[] {
  return [
    ...(o.memoryLimitBytes ? [`--as=${Math.floor(o.memoryLimitBytes)}`] : []),
    ...(o.fileSizeLimitBytes ? [`--fsize=${Math.floor(o.fileSizeLimitBytes)}`] : []),
  ];
}

async function execute(
  cmd: string,
  args: string[],
  opts: RunToolOptions & { runAs?: ToolUser | null },
): Promise<ToolResult> {
  if (opts.signal?.aborted) throw aborted();
  const prlimit = opts.rlimits === false ? [] : prlimitArgs(opts);
  const maxStdout = opts.maxStdout ?? DEFAULT_MAX_STDOUT;
  const o = await (opts.spawner ?? localSpawner).execute(
    {
      cmd,
      args,
      cwd: opts.cwd,
      env: opts.env,
      stdin: opts.stdin,
      maxStdout,
      truncate: opts.onStdoutOverflow === 'truncate',
      timeoutMs: opts.timeoutMs,
      prlimit,
      noNetwork: opts.network === false,
      runAs: opts.runAs ?? undefined,
    },
    opts.signal,
  );
  if (o.cancelled) throw aborted();
  if (o.spawnError !== undefined) {
    throw new EngineError('ENGINE_FAILED', 'A processing tool is not available on this server', {
      cause: new Error(o.spawnError),
    });
  }
  if (o.timedOut) {
    throw new EngineError(
      'TIMEOUT',
      `Processing took longer than ${Math.round((opts.timeoutMs ?? 0) / 100) / 10} s and was stopped`,
      {
        cause: new Error(`${cmd} timed out after ${opts.timeoutMs} ms; stderr: ${o.stderr.slice(-1000)}`),
      },
    );
  }
  if (o.overflow) {
    throw new EngineError(
      'OUTPUT_TOO_LARGE',
      `The result is larger than the ${Math.round(maxStdout / 1_048_576)} MB allowed`,
      {
        cause: new Error(`${cmd} stdout exceeded ${maxStdout} bytes`),
      },
    );
  }
  if (o.truncated) return { stdout: o.stdout, stderr: o.stderr, exitCode: o.exitCode ?? -1, truncated: true, ms: o.ms };
  if (o.signal === 'SIGXFSZ') {
    throw new EngineError(
      'OUTPUT_TOO_LARGE',
      `The result is larger than the ${Math.round((opts.fileSizeLimitBytes ?? 0) / 1_048_576)} MB allowed`,
      {
        cause: new Error(`${cmd} exceeded the file size limit`),
      },
    );
  }
  const ok = opts.okExitCodes ?? [0];
  if (o.exitCode === null || !ok.includes(o.exitCode))
    throw new ToolFailedError(cmd, o.exitCode, o.stderr, o.signal, o.stdout);
  return { stdout: o.stdout, stderr: o.stderr, exitCode: o.exitCode, truncated: false, ms: o.ms };
}

/** A runner bound to the server's limiter, timeout and rlimits: what engine modules receive. */
export interface ToolRunner {
  run(cmd: string, args: string[], opts?: RunToolOptions): Promise<ToolResult>;
  readonly limiter: Limiter;
  readonly timeoutMs: number;
}

export function createToolRunner(defaults: {
  limiter: Limiter;
  timeoutMs: number;
  memoryLimitBytes?: number;
  fileSizeLimitBytes?: number;
  spawner?: ProcessSpawner;
  /** Tools run without network (none of the engines' tools needs one). */
  noNetwork?: boolean;
  /** Tools run as this unprivileged account (when the server is root). */
  toolUser?: ToolUser | null;
  /** What every tool takes from the server's environment (PATH, the font configuration). */
  toolEnv?: ToolEnvBase;
}): ToolRunner {
  return {
    limiter: defaults.limiter,
    timeoutMs: defaults.timeoutMs,
    run: (cmd, args, opts = {}) =>
      runTool(cmd, args, {
        timeoutMs: defaults.timeoutMs,
        memoryLimitBytes: defaults.memoryLimitBytes,
        fileSizeLimitBytes: defaults.fileSizeLimitBytes,
        limiter: defaults.limiter,
        spawner: defaults.spawner,
        network: !defaults.noNetwork,
        ...opts,
        // A request's account (its OpContext's runAs) or else the base one: never the server's by omission.
        runAs: opts.runAs ?? defaults.toolUser,
        env: { ...defaults.toolEnv, ...opts.env },
      }),
  };
}
