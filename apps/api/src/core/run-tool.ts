import { spawn } from 'node:child_process';
import { EngineError } from './errors';
import { aborted, type Limiter } from './limiter';

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
   * false: no prlimit wrapper (one exec fewer, a few ms) for tools that copy PDF objects without decoding their
   * streams (page counting, merging, page selection, encryption); decoders (text, rendering, images, Ghostscript)
   * keep the ceilings that stop decompression bombs.
   */
  rlimits?: boolean;
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

const STDERR_KEEP = 64 * 1024;
const DEFAULT_MAX_STDOUT = 32 * 1024 * 1024;
let prlimitAvailable: boolean | undefined;

/**
 * Run an external tool: argument vector only (never a shell), its own process group (so a timeout kills what it
 * spawned too), stdout capped, stderr kept for diagnosis, optional rlimits, and a slot of the shared limiter.
 */
export async function runTool(cmd: string, args: string[], opts: RunToolOptions = {}): Promise<ToolResult> {
  const exec = () => spawnTool(cmd, args, opts);
  return opts.limiter ? opts.limiter.run(exec, opts.signal) : exec();
}

function spawnTool(cmd: string, args: string[], opts: RunToolOptions): Promise<ToolResult> {
  if (opts.signal?.aborted) return Promise.reject(aborted());
  let file = cmd;
  let argv = args;
  const limits: string[] = [];
  if (opts.memoryLimitBytes) limits.push(`--as=${Math.floor(opts.memoryLimitBytes)}`);
  if (opts.fileSizeLimitBytes) limits.push(`--fsize=${Math.floor(opts.fileSizeLimitBytes)}`);
  if (limits.length && prlimitAvailable !== false && opts.rlimits !== false) {
    file = 'prlimit';
    argv = [...limits, '--', cmd, ...args];
  }
  const started = performance.now();
  return new Promise<ToolResult>((resolve, reject) => {
    const child = spawn(file, argv, {
      cwd: opts.cwd,
      env: { ...process.env, LC_ALL: 'C.UTF-8', ...opts.env },
      detached: true,
      stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const maxStdout = opts.maxStdout ?? DEFAULT_MAX_STDOUT;
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let truncated = false;
    let overflow = false;
    let timedOut = false;
    let cancelled = false;
    let settled = false;

    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        try {
          child.kill('SIGKILL');
        } catch {
          /* already gone */
        }
      }
    };
    const timer = opts.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          killGroup();
        }, opts.timeoutMs)
      : undefined;
    const onAbort = () => {
      cancelled = true;
      killGroup();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout!.on('data', (chunk: Buffer) => {
      if (overflow || truncated) return;
      if (outBytes + chunk.length > maxStdout) {
        const room = maxStdout - outBytes;
        if (room > 0) out.push(chunk.subarray(0, room));
        outBytes = maxStdout;
        if (opts.onStdoutOverflow === 'truncate') truncated = true;
        else overflow = true;
        killGroup();
        return;
      }
      out.push(chunk);
      outBytes += chunk.length;
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
      if (err.length > STDERR_KEEP * 2) err = err.slice(-STDERR_KEEP);
    });
    if (opts.stdin !== undefined) {
      child.stdin!.on('error', () => undefined); // a tool that exits without reading its input
      child.stdin!.end(opts.stdin);
    }

    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    child.on('error', (e: NodeJS.ErrnoException) => {
      finish(() => {
        if (e.code === 'ENOENT' && file === 'prlimit' && prlimitAvailable === undefined) {
          // No prlimit on this machine: run without rlimits from now on.
          prlimitAvailable = false;
          spawnTool(cmd, args, opts).then(resolve, reject);
          return;
        }
        reject(
          new EngineError('ENGINE_FAILED', 'A processing tool is not available on this server', {
            cause: new Error(`${cmd}: ${e.message}`),
          }),
        );
      });
    });
    child.on('close', (code, sig) => {
      finish(() => {
        if (file === 'prlimit') prlimitAvailable = true;
        const ms = performance.now() - started;
        const stdout = Buffer.concat(out);
        if (cancelled) return reject(aborted());
        if (timedOut) {
          return reject(
            new EngineError('TIMEOUT', `Processing took longer than ${Math.round((opts.timeoutMs ?? 0) / 100) / 10} s and was stopped`, {
              cause: new Error(`${cmd} timed out after ${opts.timeoutMs} ms; stderr: ${err.slice(-1000)}`),
            }),
          );
        }
        if (overflow) {
          return reject(
            new EngineError('OUTPUT_TOO_LARGE', `The result is larger than the ${Math.round(maxStdout / 1_048_576)} MB allowed`, {
              cause: new Error(`${cmd} stdout exceeded ${maxStdout} bytes`),
            }),
          );
        }
        if (truncated) return resolve({ stdout, stderr: err, exitCode: code ?? -1, truncated, ms });
        if (sig === 'SIGXFSZ') {
          return reject(
            new EngineError('OUTPUT_TOO_LARGE', `The result is larger than the ${Math.round((opts.fileSizeLimitBytes ?? 0) / 1_048_576)} MB allowed`, {
              cause: new Error(`${cmd} exceeded the file size limit`),
            }),
          );
        }
        const ok = opts.okExitCodes ?? [0];
        if (code === null || !ok.includes(code)) return reject(new ToolFailedError(cmd, code, err, sig, stdout));
        resolve({ stdout, stderr: err, exitCode: code, truncated: false, ms });
      });
    });
  });
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
        ...opts,
      }),
  };
}
