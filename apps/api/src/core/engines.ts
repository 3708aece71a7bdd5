import { spawnSync } from 'node:child_process';
import { runChain, type ChainLink } from './chain';
import type { EngineContext, EngineHealth, EngineModule } from './engine-module';
import type { Engine, EngineStatus, OperationFn, OperationName } from './interfaces';
import { Limiter, type LimiterStats } from './limiter';
import { createToolRunner, prlimitArgs, type ToolRunner } from './run-tool';
import { localSpawner, type ProcessSpawner } from './spawn-process';
import { ToolHost } from './tool-host';
import { ToolAccounts } from './tool-accounts';
import { toolEnv, type ToolEnvBase } from './tool-env';
import type { AllowList } from './net/allow-list';
import { runAsPrefix, type ToolUser } from './tool-user';

/** Run as an account being given back (HOME and TMPDIR are its own: tool-env.ts). */
const SWEEP =
  'kill -9 -1; find "$HOME" -mindepth 1 -maxdepth 1 -exec rm -rf -- {} + ; ' +
  'find "$TMPDIR" /dev/shm -xdev -mindepth 1 -maxdepth 1 -user "$(id -u)" ! -path "$HOME" -exec rm -rf -- {} + ; true';

export interface EnginesOptions {
  /** Ordered engine ids per operation (already validated against the modules). */
  chains: Partial<Record<OperationName, string[]>>;
  /** Parsed config per module id. */
  moduleConfig: Record<string, Record<string, unknown>>;
  concurrency: number;
  queueSize: number;
  timeoutMs: number;
  maxOutputBytes: number;
  memoryLimitBytes?: number;
  fileSizeLimitBytes?: number;
  /** Overlap cheap operations with the input checks (see core/operations/pdf/speculation.ts). */
  speculate?: boolean;
  /** Start tools from the lean tool host process (see tool-host-process.ts) rather than from this one. */
  toolHost?: boolean;
  /** Start the tools in a network namespace of their own where the machine allows (core/isolation.ts). */
  noNetwork?: boolean;
  /**
   * The unprivileged base account tools run as when the server is root (core/tool-user.ts); null: the server's own.
   * Chromium and the probes run as it; it owns no workspace.
   */
  toolUser?: ToolUser | null;
  /** The pool requests and LibreOffice instances lease an account of their own from (core/tool-accounts.ts). */
  toolAccounts?: ToolUser[];
  /**
   * How long a caller outside the processing queue waits for a free account before it is refused as busy
   * (QUEUE_FULL; tool-accounts.ts). Requests' tools wait for theirs in the queue instead.
   */
  toolAccountWaitMs?: number;
  /** What every tool takes from the server's environment: PATH and the font configuration (config/engines.ts). */
  toolEnv?: ToolEnvBase;
  /** The operator's intranet hosts and ranges a page may load from (OUTBOUND_ALLOW_LIST). */
  outboundAllowList?: AllowList;
}

/** One operation through its chain, as metrics see it. */
export interface RunRecord {
  op: OperationName;
  /** The engine that answered, or the last one tried. */
  engine: string;
  ok: boolean;
  /** The error code when it failed. */
  code?: string;
  ms: number;
}

export interface RunResult<R> {
  value: R;
  engine: string;
}

/**
 * The engines of this server, composed from config: an ordered fallback chain per operation (first success wins),
 * a shared limiter for all processing, and health checks.
 */
export class Engines {
  readonly limiter: Limiter;
  readonly tools: ToolRunner;
  /** The tools' accounts: each request's workspace leases one (core/workspace.ts). */
  readonly accounts: ToolAccounts;
  private readonly spawner: ProcessSpawner;
  /** Told of every operation run (the metrics plugin listens). */
  readonly observers: Array<(r: RunRecord) => void> = [];
  private readonly instances = new Map<string, Engine>();
  private readonly links = new Map<OperationName, ChainLink<unknown>[]>();
  /** Per engine that keeps processes, once `warm()` was called: still starting, up, or why it did not start. */
  private readonly warming = new Map<string, { state: 'warming' | 'warm' | 'failed'; message?: string }>();

  constructor(
    private readonly modules: ReadonlyArray<EngineModule<Record<string, unknown>>>,
    readonly options: EnginesOptions,
  ) {
    this.limiter = new Limiter({ concurrency: options.concurrency, queueSize: options.queueSize });
    // The host starts inside what every tool gets, so that its tools need no wrapper of their own.
    this.spawner = options.toolHost
      ? new ToolHost(
          {
            noNetwork: options.noNetwork === true,
            runAs: options.toolUser ?? null,
            prlimit: prlimitArgs(options),
          },
          options.toolEnv,
        )
      : localSpawner;
    this.tools = createToolRunner({
      spawner: this.spawner,
      limiter: this.limiter,
      timeoutMs: options.timeoutMs,
      memoryLimitBytes: options.memoryLimitBytes,
      fileSizeLimitBytes: options.fileSizeLimitBytes,
      noNetwork: options.noNetwork,
      toolUser: options.toolUser,
      toolEnv: options.toolEnv,
    });
    // A returned account is swept, as that account: its processes killed (`kill -9 -1` signals every process it may),
    // then what it left in its home and the temp folder removed, so that its next holder finds nothing of this one.
    this.accounts = new ToolAccounts(options.toolUser ?? null, options.toolAccounts ?? [], {
      sweep: async (user) => {
        await this.tools.run('sh', ['-c', SWEEP], {
          runAs: user,
          limiter: null,
          timeoutMs: 10_000,
          okExitCodes: [0, 1, 137],
        });
      },
      // At exit the tool host may be gone and no promise will settle: the sweep runs straight from this process.
      sweepNow: (user) => {
        const [cmd = 'setpriv', ...args] = runAsPrefix(user);
        spawnSync(cmd, [...args, 'sh', '-c', SWEEP], {
          env: toolEnv(options.toolEnv ? { ...options.toolEnv } : {}, user),
          stdio: 'ignore',
          timeout: 10_000,
        });
      },
      waitMs: options.toolAccountWaitMs,
    });
    // Requests waiting for an account wait in the processing queue: one given back may let the next start.
    this.accounts.onGiveBack(() => this.limiter.wake());
    for (const [op, ids] of Object.entries(options.chains) as Array<[OperationName, string[]]>) {
      const links: ChainLink<unknown>[] = [];
      for (const id of ids) {
        const engine = this.instance(id);
        const fn = engine[op] as ((...a: unknown[]) => unknown) | undefined;
        if (typeof fn !== 'function') throw new Error(`engine "${id}" does not implement ${op}`);
        links.push({ id, impl: fn.bind(engine) });
      }
      this.links.set(op, links);
    }
  }

  private get ctx(): EngineContext {
    return {
      tools: this.tools,
      maxOutputBytes: this.options.maxOutputBytes,
      noNetwork: this.options.noNetwork,
      toolUser: this.options.toolUser,
      accounts: this.accounts,
      toolEnv: this.options.toolEnv,
      outboundAllowList: this.options.outboundAllowList,
    };
  }

  private instance(id: string): Engine {
    let e = this.instances.get(id);
    if (!e) {
      const m = this.modules.find((x) => x.id === id);
      if (!m) throw new Error(`unknown engine "${id}"`);
      e = m.create(this.options.moduleConfig[id] ?? m.configSchema.parse({}), this.ctx);
      this.instances.set(id, e);
    }
    return e;
  }

  /** An engine already created (the system monitor and tests look at its processes). */
  created(id: string): Engine | undefined {
    return this.instances.get(id);
  }

  /** The configured engine ids of an operation, in order. */
  chain(op: OperationName): string[] {
    return (this.links.get(op) ?? []).map((l) => l.id);
  }

  has(op: OperationName): boolean {
    return (this.links.get(op)?.length ?? 0) > 0;
  }

  /** Run an operation through its chain. */
  async run<K extends OperationName, R>(
    op: K,
    call: (fn: OperationFn<K>, engine: string) => Promise<R>,
    signal?: AbortSignal,
  ): Promise<RunResult<R>> {
    const started = performance.now();
    try {
      const r = await runChain(op, (this.links.get(op) ?? []) as ChainLink<OperationFn<K>>[], call, { signal });
      this.notify({ op, engine: r.engine, ok: true, ms: performance.now() - started });
      return { value: r.value, engine: r.engine };
    } catch (err) {
      const e = err as { code?: string; engine?: string };
      this.notify({
        op,
        engine: e.engine ?? this.chain(op).at(-1) ?? 'none',
        ok: false,
        code: e.code,
        ms: performance.now() - started,
      });
      throw err;
    }
  }

  private notify(r: RunRecord): void {
    for (const o of this.observers) o(r);
  }

  /** Stop the tool host (tools still running are killed). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.instances.values()].map((e) => e.close?.()));
    await this.spawner.close?.();
  }

  stats(): LimiterStats {
    return this.limiter.stats();
  }

  /**
   * The tools' accounts the configuration keeps busy at once: one per processing slot, plus one per LibreOffice
   * instance (each holds its own for its life). With fewer, requests past what is left wait in the queue for one and
   * slots stay idle; the server says so at start (app.ts).
   */
  accountsWanted(): number {
    const office = this.usedIds().has('libreoffice')
      ? Number(this.options.moduleConfig.libreoffice?.INSTANCES ?? 0) || 0
      : 0;
    return this.options.concurrency + office;
  }

  /** Every engine used by some chain, with the live status of those that keep processes and have started. */
  statuses(): Array<{ id: string; status?: EngineStatus }> {
    const ids = this.usedIds();
    return [...ids].map((id) => ({ id, status: this.instances.get(id)?.status?.() }));
  }

  /**
   * Start, in the background, the processes of every engine some chain uses that keeps some (LibreOffice's pool,
   * the browser), so that the first conversion finds them up. Settles when all are up or failed to start; called
   * again, it retries those that failed and leaves alone those still starting.
   */
  async warm(): Promise<void> {
    const ids = this.usedIds();
    const engines = [...ids]
      .map((id) => [id, this.instance(id)] as const)
      .filter(([id, e]) => {
        if (!e.warm || this.warming.get(id)?.state === 'warming') return false;
        this.warming.set(id, { state: 'warming' });
        return true;
      });
    // One after the other: loading the browser driver holds this thread ~0.5 s, better not while the server's
    // first requests (a probe's /health) come in, and on a small machine the starts compete for the same cores.
    for (const [id, engine] of engines) {
      try {
        await engine.warm!();
        this.warming.set(id, { state: 'warm' });
      } catch (err) {
        this.warming.set(id, { state: 'failed', message: (err as Error).message });
      }
    }
  }

  /** What `warm()` did so far, per engine it started (empty when it was never called). */
  warmState(): Record<string, { state: 'warming' | 'warm' | 'failed'; message?: string }> {
    return Object.fromEntries(this.warming);
  }

  /** The engines some chain uses. */
  private usedIds(): Set<string> {
    return new Set([...this.links.values()].flat().map((l) => l.id));
  }

  /** Health of every engine used by some chain. */
  async health(): Promise<Record<string, EngineHealth>> {
    const ids = this.usedIds();
    const out: Record<string, EngineHealth> = {};
    await Promise.all(
      [...ids].map(async (id) => {
        const m = this.modules.find((x) => x.id === id)!;
        const started = performance.now();
        try {
          out[id] = await m.healthCheck(this.options.moduleConfig[id] ?? m.configSchema.parse({}), this.ctx);
        } catch (err) {
          out[id] = { ok: false, message: (err as Error).message };
        }
        out[id].ms = Math.round((performance.now() - started) * 10) / 10;
      }),
    );
    return out;
  }
}
