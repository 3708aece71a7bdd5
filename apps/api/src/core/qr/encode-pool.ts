import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { EngineError, type EngineErrorCode } from '../errors';
import type { QrCode, QrRenderOptions } from '../operations/qr/interfaces';

// From the sources (tsx) the worker is TypeScript; from the build (scripts/build-api.mjs) it is encode-worker.js here.
const fromSources = import.meta.url.endsWith('.ts');
const workerUrl = new URL(`./encode-worker.${fromSources ? 'ts' : 'js'}`, import.meta.url);
let tsxPath: string | undefined;
/** tsx's ESM API (the `import` entry of tsx/esm/api; require.resolve finds its CommonJS twin). */
const tsxApi = () =>
  (tsxPath ??= pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href);

type Reply =
  | { id: number; data: Uint8Array; mimeType: QrCode['mimeType']; version: number }
  | { id: number; error: { code: EngineErrorCode; message: string; details?: unknown } };

interface Slot {
  worker: Worker;
  pending: Map<number, { resolve: (c: QrCode) => void; reject: (e: unknown) => void }>;
}

/**
 * A few worker threads that encode QR codes, so the main thread keeps to HTTP, the key guard and metering while a
 * second core renders. Work goes to the least busy worker; a worker that dies fails its pending codes and is
 * replaced on next use. When workers cannot start at all, `encode` answers null and the caller encodes in-process.
 */
export class QrEncodePool {
  private slots: Array<Slot | null>;
  private next = 1;
  private broken = false;

  constructor(private readonly size: number) {
    this.slots = Array.from({ length: size }, () => null);
  }

  private spawn(i: number): Slot | null {
    try {
      // A TypeScript worker needs a two-line bootstrap that registers tsx in the thread, then loads it (loader hooks
      // given with --import are not inherited by worker threads on Node 20).
      const worker = fromSources
        ? new Worker(
            `import(${JSON.stringify(tsxApi())}).then((m) => { (m.register ?? m.default.register)(); return import(${JSON.stringify(workerUrl.href)}); })`,
            { eval: true },
          )
        : new Worker(workerUrl);
      worker.unref();
      const slot: Slot = { worker, pending: new Map() };
      worker.on('message', (r: Reply) => {
        const p = slot.pending.get(r.id);
        if (!p) return;
        slot.pending.delete(r.id);
        if ('error' in r) p.reject(new EngineError(r.error.code, r.error.message, { details: r.error.details }));
        else
          p.resolve({
            data: Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength),
            mimeType: r.mimeType,
            version: r.version,
          });
      });
      const fail = (err: unknown) => {
        for (const p of slot.pending.values())
          p.reject(new EngineError('ENGINE_FAILED', 'QR encoding failed', { cause: err }));
        slot.pending.clear();
        if (this.slots[i] === slot) this.slots[i] = null;
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`QR worker exited with ${code}`)));
      return (this.slots[i] = slot);
    } catch {
      this.broken = true;
      return null;
    }
  }

  /** The code, or null when no worker is available (encode in-process then). */
  encode(payload: string, opts: QrRenderOptions): Promise<QrCode> | null {
    if (this.broken || this.size === 0) return null;
    let best = -1;
    for (let i = 0; i < this.size; i++) {
      const s = this.slots[i];
      if (!s) {
        best = i;
        break;
      }
      if (best < 0 || s.pending.size < this.slots[best]!.pending.size) best = i;
    }
    const slot = this.slots[best] ?? this.spawn(best);
    if (!slot) return null;
    const id = this.next++;
    return new Promise<QrCode>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.worker.postMessage({ id, payload, opts });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s?.worker.terminate()));
    this.slots = this.slots.map(() => null);
  }
}
