import { spawn } from 'node:child_process';
import { noNetworkPrefix } from './isolation';
import { toolEnv } from './tool-env';
import { runAsPrefix, type ToolUser } from './tool-user';

/**
 * One external process, run to its end and reported as plain data (never a rejection): what `runTool` turns into a
 * result or a typed error. Plain data so that it can run here or in the tool host process and cross IPC unchanged.
 */
export interface SpawnRequest {
  cmd: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string | undefined>;
  stdin?: Buffer | string;
  /** Bytes of stdout kept; past it the process group is killed. */
  maxStdout: number;
  /** Past maxStdout: report `truncated` (true) or `overflow` (false). */
  truncate: boolean;
  timeoutMs?: number;
  /** prlimit(1) arguments (e.g. `--as=…`); empty: run the command directly. */
  prlimit: string[];
  /** Start it in a network namespace of its own (core/isolation.ts), where the machine allows. */
  noNetwork?: boolean;
  /** Run it as this unprivileged account (core/tool-user.ts): set when the server runs as root. */
  runAs?: ToolUser;
  /**
   * The process starting it is already confined as this request asks (network, ceilings, no new privileges: the
   * tool host, tool-host.ts): no wrapper is started, only the account is switched, by the spawn itself.
   */
  confined?: boolean;
}

export interface SpawnOutcome {
  exitCode: number | null;
  signal: string | null;
  stdout: Buffer;
  stderr: string;
  truncated: boolean;
  overflow: boolean;
  timedOut: boolean;
  cancelled: boolean;
  /** The process could not be started (e.g. ENOENT): the message. */
  spawnError?: string;
  ms: number;
}

/** Where processes are started: in this process, or in the lean tool host (see tool-host.ts). */
export interface ProcessSpawner {
  execute(req: SpawnRequest, signal?: AbortSignal): Promise<SpawnOutcome>;
  close?(): Promise<void>;
}

/**
 * The commands that confine what follows them, in the order they must run: the namespace first (unshare needs
 * root), then the account (`account`: setpriv's arguments), then the ceilings (prlimit(1) arguments).
 */
export function confinementWrappers(c: { noNetwork?: boolean; account: string[]; prlimit: string[] }): string[] {
  return [
    ...(c.noNetwork ? noNetworkPrefix() : []),
    ...c.account,
    ...(c.prlimit.length ? ['prlimit', ...c.prlimit, '--'] : []),
  ];
}

const STDERR_KEEP = 64 * 1024;
let prlimitAvailable: boolean | undefined;

/**
 * Argument vector only (never a shell), its own process group (so a timeout or a cancel kills what it spawned too),
 * stdout capped, stderr tail kept. Without prlimit on the machine, runs without the ceilings.
 */
export function spawnProcess(
  req: SpawnRequest,
  signal?: AbortSignal,
  onStart?: (pid: number) => void,
): Promise<SpawnOutcome> {
  const started = performance.now();
  const confined = req.confined === true;
  const usePrlimit = !confined && req.prlimit.length > 0 && prlimitAvailable !== false;
  const wrappers = confined
    ? []
    : confinementWrappers({
        noNetwork: req.noNetwork,
        account: runAsPrefix(req.runAs),
        prlimit: usePrlimit ? req.prlimit : [],
      });
  const [file = req.cmd, ...argv] = [...wrappers, req.cmd, ...req.args];
  const base = {
    signal: null,
    stdout: Buffer.alloc(0),
    stderr: '',
    truncated: false,
    overflow: false,
    timedOut: false,
  };
  if (signal?.aborted) return Promise.resolve({ ...base, exitCode: null, cancelled: true, ms: 0 });

  return new Promise<SpawnOutcome>((resolve) => {
    const child = spawn(file, argv, {
      // A tool switched to the tools' account cannot always enter the server's working folder (a clone under /root
      // or a 0700 temp folder), and some (soffice's launcher) fail there: it starts at the root instead.
      cwd: req.cwd ?? (req.runAs ? '/' : undefined),
      env: toolEnv(req.env, req.runAs),
      // Confined: the account switch setpriv would make (libuv drops the supplementary groups too).
      ...(confined && req.runAs ? { uid: req.runAs.uid, gid: req.runAs.gid } : {}),
      detached: true,
      stdio: [req.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    if (child.pid !== undefined) onStart?.(child.pid);
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
    const timer = req.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          killGroup();
        }, req.timeoutMs)
      : undefined;
    const onAbort = () => {
      cancelled = true;
      killGroup();
    };
    signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout!.on('data', (chunk: Buffer) => {
      if (overflow || truncated) return;
      if (outBytes + chunk.length > req.maxStdout) {
        const room = req.maxStdout - outBytes;
        if (room > 0) out.push(chunk.subarray(0, room));
        outBytes = req.maxStdout;
        if (req.truncate) truncated = true;
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
    if (req.stdin !== undefined) {
      child.stdin!.on('error', () => undefined); // a tool that exits without reading its input
      child.stdin!.end(req.stdin);
    }

    const finish = (outcome: Omit<SpawnOutcome, 'ms'>) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve({ ...outcome, ms: performance.now() - started });
    };
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT' && usePrlimit && prlimitAvailable === undefined) {
        // No prlimit on this machine: run without ceilings from now on.
        prlimitAvailable = false;
        settled = true;
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        spawnProcess(req, signal, onStart).then(resolve);
        return;
      }
      finish({ ...base, exitCode: null, cancelled, spawnError: `${req.cmd}: ${e.message}` });
    });
    child.on('close', (code, sig) => {
      if (usePrlimit) prlimitAvailable = true;
      // Through a wrapper (prlimit, unshare) a missing tool is the wrapper's exit 127, not a spawn error.
      if (code === 127 && file !== req.cmd && /failed to execute|No such file or directory/.test(err)) {
        finish({ ...base, exitCode: null, cancelled, spawnError: `${req.cmd}: ${err.trim().slice(-300)}` });
        return;
      }
      finish({
        exitCode: code,
        signal: sig,
        stdout: Buffer.concat(out),
        stderr: err,
        truncated,
        overflow,
        timedOut,
        cancelled,
      });
    });
  });
}

export const localSpawner: ProcessSpawner = { execute: spawnProcess };
