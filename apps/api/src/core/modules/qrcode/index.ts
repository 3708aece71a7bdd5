import { createRequire } from 'node:module';
import os from 'node:os';
import { z } from 'zod';
import QRCode from 'qrcode';
import { defineModule } from '../../engine-module';
import { EngineError } from '../../errors';
import type { Engine } from '../../interfaces';
import type { QrCode, QrErrorCorrection, QrRenderOptions } from '../../operations/qr/interfaces';
import { encodeQrPng, parseHexColor, type Rgba } from '../../qr/png';
import { QrEncodePool } from '../../qr/encode-pool';

const ZConfig = z.object({
  /** Generated codes kept in memory (LRU) for repeated identical requests; 0 turns the cache off. */
  CACHE_SIZE: z.coerce.number().int().min(0).default(1000),
  /** Worker threads that encode (0: on the main thread). Default: one per core beyond the first, at most 4. */
  WORKERS: z.coerce
    .number()
    .int()
    .min(0)
    .max(64)
    .default(Math.min(4, Math.max(0, os.availableParallelism() - 1))),
});
type QrcodeConfig = z.infer<typeof ZConfig>;

/**
 * UTF-8 payloads carry an ECI 26 designator, so decoders do not have to guess the charset (zbar, for one, guesses
 * Shift-JIS or Big5 for UTF-8 bytes without it). The qrcode package has no ECI segment: its segment list is opened
 * to pre-built segments with a one-line wrapper of `fromArray`, and the ECI segment is written as a mode indicator
 * 0111 followed by the 8-bit assignment number.
 */
type Segment = {
  mode: { id: string; bit: number; ccBits: number[] };
  getLength(): number;
  getBitsLength(): number;
  write(buf: unknown): void;
};
const require = createRequire(import.meta.url);
const Segments = require('qrcode/lib/core/segments') as {
  fromArray: (a: unknown[]) => Segment[];
  __eciPatched?: boolean;
};
if (!Segments.__eciPatched) {
  const fromArray = Segments.fromArray;
  Segments.fromArray = (array: unknown[]) =>
    array.flatMap((s) =>
      s && typeof (s as Segment).write === 'function' && (s as Segment).mode ? [s as Segment] : fromArray([s]),
    );
  Segments.__eciPatched = true;
}
const ECI_MODE = { id: 'ECI', bit: 0b0111, ccBits: [8, 8, 8] };
const eciSegment = (assignment: number): Segment => ({
  mode: ECI_MODE,
  getLength: () => assignment,
  getBitsLength: () => 0,
  write: () => undefined,
});

/** Byte capacity of the largest QR code (version 40) per error correction level. */
export const maxBytes: Record<QrErrorCorrection, number> = { L: 2953, M: 2331, Q: 1663, H: 1273 };

// eslint-disable-next-line no-control-regex
const isAscii = (s: string) => /^[\x00-\x7f]*$/.test(s);

export function createSymbol(payload: string, ecl: QrErrorCorrection) {
  const data = isAscii(payload)
    ? payload
    : ([
        eciSegment(26),
        { data: new TextEncoder().encode(payload), mode: 'byte' },
      ] as unknown as QRCode.QRCodeSegment[]);
  try {
    return QRCode.create(data, { errorCorrectionLevel: ecl });
  } catch (err) {
    const bytes = Buffer.byteLength(payload, 'utf8');
    if (/too big|amount of data/i.test((err as Error).message)) {
      throw new EngineError(
        'INVALID_INPUT',
        `data: the content (${bytes} bytes) does not fit in a QR code at error correction ${ecl} (at most about ${maxBytes[ecl]} bytes; lower errorCorrection or shorten the content)`,
        { cause: err, details: { field: 'data', bytes, maxBytes: maxBytes[ecl] } },
      );
    }
    throw new EngineError('INVALID_INPUT', 'data: this content cannot be encoded as a QR code', {
      cause: err,
      details: { field: 'data' },
    });
  }
}

function colors(opts: QrRenderOptions): { dark: Rgba; light: Rgba } {
  const dark = parseHexColor(opts.color);
  if (!dark)
    throw new EngineError('INVALID_INPUT', 'color: must be #rgb, #rrggbb or #rrggbbaa', {
      details: { field: 'color' },
    });
  const light = parseHexColor(opts.background);
  if (!light)
    throw new EngineError('INVALID_INPUT', 'background: must be #rgb, #rrggbb or #rrggbbaa', {
      details: { field: 'background' },
    });
  return { dark, light };
}

export function renderSvg(modules: Uint8Array, count: number, opts: QrRenderOptions, dark: Rgba, light: Rgba): string {
  const total = count + 2 * opts.margin;
  const fill = (c: Rgba) =>
    `#${c
      .slice(0, 3)
      .map((v) => v.toString(16).padStart(2, '0'))
      .join('')}`;
  const opacity = (c: Rgba) => (c[3] < 255 ? ` fill-opacity="${Math.round((c[3] / 255) * 1000) / 1000}"` : '');
  let d = '';
  for (let y = 0; y < count; y++) {
    let x = 0;
    while (x < count) {
      if (!modules[y * count + x]) {
        x++;
        continue;
      }
      let run = 1;
      while (x + run < count && modules[y * count + x + run]) run++;
      d += `M${x + opts.margin} ${y + opts.margin}h${run}v1h-${run}z`;
      x += run;
    }
  }
  const bg = light[3] === 0 ? '' : `<rect width="${total}" height="${total}" fill="${fill(light)}"${opacity(light)}/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${opts.size}" height="${opts.size}" viewBox="0 0 ${total} ${total}" shape-rendering="crispEdges">` +
    `${bg}<path fill="${fill(dark)}"${opacity(dark)} d="${d}"/></svg>\n`
  );
}

/** A small LRU: Map keeps insertion order; a hit is re-inserted at the end. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(k: string): V | undefined {
    const v = this.map.get(k);
    if (v !== undefined) {
      this.map.delete(k);
      this.map.set(k, v);
    }
    return v;
  }
  set(k: string, v: V): void {
    if (this.max === 0) return;
    this.map.delete(k);
    this.map.set(k, v);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
}

export function encodeQr(payload: string, opts: QrRenderOptions): QrCode {
  const { dark, light } = colors(opts);
  const symbol = createSymbol(payload, opts.errorCorrection);
  const count = symbol.modules.size;
  const total = count + 2 * opts.margin;
  if (opts.format === 'svg') {
    return {
      data: Buffer.from(renderSvg(symbol.modules.data, count, opts, dark, light)),
      mimeType: 'image/svg+xml',
      version: symbol.version,
    };
  }
  const moduleSize = Math.floor(opts.size / total);
  if (moduleSize < 1) {
    throw new EngineError(
      'INVALID_INPUT',
      `size: ${opts.size} px is too small for this content (a version ${symbol.version} code with margin ${opts.margin} needs at least ${total} px)`,
      { details: { field: 'size', minimum: total } },
    );
  }
  const data = encodeQrPng({
    modules: symbol.modules.data,
    count,
    margin: opts.margin,
    moduleSize,
    size: opts.size,
    dark,
    light,
  });
  return { data, mimeType: 'image/png', version: symbol.version };
}

export const qrcodeModule = defineModule<QrcodeConfig>({
  id: 'qrcode',
  description:
    'qrcode (npm) symbol encoder with an in-process 1-bit PNG and SVG writer; UTF-8 content flagged with ECI 26',
  license: 'MIT',
  envPrefix: 'QRCODE',
  configSchema: ZConfig,
  operations: ['encodeQr'],
  async healthCheck() {
    encodeQr('health', { format: 'png', size: 64, margin: 1, errorCorrection: 'L', color: '#000', background: '#fff' });
    return { ok: true, version: '1.5' };
  },
  create(config: QrcodeConfig): Engine {
    const cache = new Lru<QrCode>(config.CACHE_SIZE);
    const pool = new QrEncodePool(config.WORKERS);
    return {
      id: 'qrcode',
      async encodeQr(payload, opts) {
        const key = `${opts.format}|${opts.size}|${opts.margin}|${opts.errorCorrection}|${opts.color}|${opts.background}|${payload}`;
        const hit = cache.get(key);
        if (hit) return hit;
        const viaWorker = pool.encode(payload, opts);
        let code: QrCode;
        try {
          code = viaWorker ? await viaWorker : encodeQr(payload, opts);
        } catch (err) {
          // A worker that died (not a refusal of the content): encode here instead.
          if (!(err instanceof EngineError) || err.code !== 'ENGINE_FAILED') throw err;
          code = encodeQr(payload, opts);
        }
        cache.set(key, code);
        return code;
      },
    };
  },
});
