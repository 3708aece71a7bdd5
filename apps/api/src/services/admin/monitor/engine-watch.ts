import type { RunRecord } from '../../../core/engines';

interface EngineRuns {
  runs: Array<{ at: number; ok: boolean }>;
  lastError: { at: number; code: string; op: string } | null;
  lastOkAt: number | null;
}

/**
 * What the engines did lately, from the engines' run observers: per engine, the outcomes of the last few minutes and
 * the last error, so the monitor shows an engine that keeps failing as degraded even when its --version answers.
 */
export class EngineWatch {
  private readonly engines = new Map<string, EngineRuns>();

  constructor(private readonly windowMs = 5 * 60_000) {}

  readonly observe = (r: RunRecord): void => {
    const now = Date.now();
    let e = this.engines.get(r.engine);
    if (!e) this.engines.set(r.engine, (e = { runs: [], lastError: null, lastOkAt: null }));
    // Refusals of bad input (a corrupt file) are the caller's fault, not the engine's: only engine failures count.
    const fault = !r.ok && (r.code === 'ENGINE_FAILED' || r.code === 'TIMEOUT' || r.code === undefined);
    e.runs.push({ at: now, ok: !fault });
    if (e.runs.length > 500) e.runs.splice(0, e.runs.length - 500);
    if (fault) e.lastError = { at: now, code: r.code ?? 'ERROR', op: r.op };
    if (r.ok) e.lastOkAt = now;
  };

  summary(engine: string, now = Date.now()) {
    const e = this.engines.get(engine);
    const recent = (e?.runs ?? []).filter((r) => now - r.at < this.windowMs);
    const failed = recent.filter((r) => !r.ok).length;
    return {
      runs: recent.length,
      failed,
      lastError: e?.lastError ?? null,
      lastOkAt: e?.lastOkAt ?? null,
      /** Most runs of the window failed, and the latest failure came after the latest success. */
      failing: recent.length >= 3 && failed / recent.length > 0.5 && (e?.lastError?.at ?? 0) > (e?.lastOkAt ?? 0),
    };
  }
}
