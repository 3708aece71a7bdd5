import { parentPort } from 'node:worker_threads';
import { encodeQr } from '../modules/qrcode/index';
import { EngineError } from '../errors';
import type { QrRenderOptions } from '../operations/qr/interfaces';

/** QR encoding off the main thread: one message in ({ id, payload, opts }), one out (the image or the error). */
parentPort!.on('message', (m: { id: number; payload: string; opts: QrRenderOptions }) => {
  try {
    const code = encodeQr(m.payload, m.opts);
    const bytes = new Uint8Array(code.data.buffer, code.data.byteOffset, code.data.byteLength).slice();
    parentPort!.postMessage({ id: m.id, data: bytes, mimeType: code.mimeType, version: code.version }, [bytes.buffer]);
  } catch (err) {
    const e = err instanceof EngineError ? err : new EngineError('ENGINE_FAILED', 'QR encoding failed', { cause: err });
    parentPort!.postMessage({ id: m.id, error: { code: e.code, message: e.message, details: e.details } });
  }
});
