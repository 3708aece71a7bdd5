import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { inflate as inflateCallback, inflateSync } from 'node:zlib';
import { giveUp, type Budget } from './limits';
import { isDict, type PdfValue } from './objects';
import { NeedWork } from './reader';

const inflateAsync = promisify(inflateCallback);

/**
 * Output a stream may inflate to on the event loop (well under a millisecond): the xref and object streams of
 * ordinary files. A larger one (a flate bomb, a huge object stream) is inflated again in zlib's thread pool, within
 * the scan's budget, while the server goes on answering others.
 */
export const SYNC_INFLATE_BYTES = 256 * 1024;

/**
 * Stream data decoding for the two kinds of stream a scan reads (xref streams and object streams): FlateDecode with
 * or without a PNG predictor, or no filter. Anything else is left to the tools. `filter` and `parms` are the
 * resolved /Filter and /DecodeParms.
 */
export function decodeStream(
  raw: Buffer,
  filter: PdfValue | undefined,
  parms: PdfValue | undefined,
  budget: Budget,
): Buffer {
  const filters = filter === undefined || filter === null ? [] : Array.isArray(filter) ? filter : [filter];
  if (filters.length === 0) return raw;
  if (filters.length > 1 || filters[0] !== 'FlateDecode') throw giveUp('stream filter other than FlateDecode');
  const data = inflate(raw, budget);
  const p = Array.isArray(parms) && parms.length === 1 ? parms[0] : parms;
  if (p === undefined || p === null) return data;
  if (!isDict(p)) throw giveUp('unsupported /DecodeParms');
  return unpredict(data, p);
}

function inflate(raw: Buffer, budget: Budget): Buffer {
  const room = budget.inflateRoom();
  const key = budget.inflatedOffLoop.size > 0 ? digest(raw) : null;
  const done = key === null ? undefined : budget.inflatedOffLoop.get(key);
  if (done !== undefined) {
    budget.inflatedOffLoop.delete(key!);
    if (done === 'failed') throw giveUp('stream does not inflate within the limits');
    budget.spendInflate(done.length);
    return done;
  }
  let out: Buffer;
  try {
    out = inflateSync(raw, { maxOutputLength: Math.min(room, SYNC_INFLATE_BYTES) });
  } catch (err) {
    if (room > SYNC_INFLATE_BYTES && (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      const k = key ?? digest(raw);
      throw new NeedWork(async () => {
        // Capped: a few KB can inflate to gigabytes.
        const big = await inflateAsync(raw, { maxOutputLength: room }).catch(() => 'failed' as const);
        budget.inflatedOffLoop.set(k, big);
      });
    }
    throw giveUp('stream does not inflate within the limits');
  }
  budget.spendInflate(out.length);
  return out;
}

const digest = (raw: Buffer) => createHash('sha256').update(raw).digest('base64');

const intParam = (p: Map<string, PdfValue>, key: string, fallback: number, max: number): number => {
  const v = p.get(key) ?? fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) throw giveUp(`unsupported /${key}`);
  return v;
};

function unpredict(data: Buffer, parms: Map<string, PdfValue>): Buffer {
  const predictor = intParam(parms, 'Predictor', 1, 15);
  if (predictor === 1) return data;
  if (predictor < 10) throw giveUp('TIFF predictor');
  const colors = intParam(parms, 'Colors', 1, 32);
  const bits = intParam(parms, 'BitsPerComponent', 8, 16);
  const columns = intParam(parms, 'Columns', 1, 1 << 24);
  const rowBytes = Math.ceil((columns * colors * bits) / 8);
  if (rowBytes < 1) throw giveUp('empty predictor rows');
  return unpredictPng(data, rowBytes, Math.max(1, Math.ceil((colors * bits) / 8)));
}

/** PNG row filters (None, Sub, Up, Average, Paeth), each row led by its filter type byte. */
export function unpredictPng(data: Buffer, rowBytes: number, bpp: number): Buffer {
  const stride = rowBytes + 1;
  if (data.length % stride !== 0) throw giveUp('predicted data is not whole rows');
  const rows = data.length / stride;
  const out = Buffer.alloc(rows * rowBytes);
  for (let r = 0; r < rows; r++) {
    const type = data[r * stride]!;
    const src = r * stride + 1;
    const at = r * rowBytes;
    for (let i = 0; i < rowBytes; i++) {
      const left = i >= bpp ? out[at + i - bpp]! : 0;
      const up = r > 0 ? out[at + i - rowBytes]! : 0;
      const upLeft = r > 0 && i >= bpp ? out[at + i - rowBytes - bpp]! : 0;
      out[at + i] = (data[src + i]! + predict(type, left, up, upLeft)) & 0xff;
    }
  }
  return out;
}

function predict(type: number, left: number, up: number, upLeft: number): number {
  switch (type) {
    case 0:
      return 0;
    case 1:
      return left;
    case 2:
      return up;
    case 3:
      return (left + up) >> 1;
    case 4:
      return paeth(left, up, upLeft);
    default:
      throw giveUp('unknown PNG filter type');
  }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
