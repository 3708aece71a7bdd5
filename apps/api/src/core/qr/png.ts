import { deflateSync } from 'node:zlib';

/**
 * A minimal PNG writer for two-colour images: 1 bit per pixel with a 2-entry palette (plus tRNS for alpha). QR codes
 * need nothing more, and it is ~10× faster than rendering RGBA and compressing 32 bits per pixel.
 */

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

function crc32(buf: Buffer, start: number, end: number): number {
  let c = -1;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const b = Buffer.alloc(12 + data.length);
  b.writeUInt32BE(data.length, 0);
  b.write(type, 4, 'latin1');
  data.copy(b, 8);
  b.writeUInt32BE(crc32(b, 4, 8 + data.length), 8 + data.length);
  return b;
}

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

export type Rgba = [number, number, number, number];

/**
 * Encode a square bitmap of `size` px where `isDark(x, y)` is computed per module: the caller passes the module grid
 * (`modules`, row-major, `count`×`count`), the quiet zone in modules and the pixel size of one module.
 */
export function encodeQrPng(opts: {
  modules: ArrayLike<number | boolean>;
  count: number;
  margin: number;
  moduleSize: number;
  size: number;
  dark: Rgba;
  light: Rgba;
}): Buffer {
  const { modules, count, margin, moduleSize, size } = opts;
  const rowBytes = Math.ceil(size / 8);
  const stride = rowBytes + 1; // filter byte (0: none) + packed bits
  const raw = Buffer.alloc(stride * size);
  // The code is centred: any pixels left over by integer module sizes go to the border.
  const drawn = (count + 2 * margin) * moduleSize;
  const offset = Math.floor((size - drawn) / 2) + margin * moduleSize;
  let prevModuleRow = -1;
  let prevOffset = 0;
  for (let y = 0; y < size; y++) {
    const py = y - offset;
    const my = py >= 0 ? Math.floor(py / moduleSize) : -1;
    const rowStart = y * stride;
    if (my < 0 || my >= count) continue; // light row: all zero bits
    if (my === prevModuleRow) {
      raw.copy(raw, rowStart, prevOffset, prevOffset + stride);
      continue;
    }
    prevModuleRow = my;
    prevOffset = rowStart;
    const base = my * count;
    for (let mx = 0; mx < count; mx++) {
      if (!modules[base + mx]) continue;
      const x0 = offset + mx * moduleSize;
      // in range: x < size, so the byte index stays inside this row's stride
      for (let x = x0; x < x0 + moduleSize; x++) raw[rowStart + 1 + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 3; // colour type: palette
  const { dark, light } = opts;
  const plte = Buffer.from([light[0], light[1], light[2], dark[0], dark[1], dark[2]]);
  const parts = [SIGNATURE, chunk('IHDR', ihdr), chunk('PLTE', plte)];
  if (light[3] < 255 || dark[3] < 255) parts.push(chunk('tRNS', Buffer.from([light[3], dark[3]])));
  parts.push(chunk('IDAT', deflateSync(raw, { level: 6 })), chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

/** "#rgb", "#rgba", "#rrggbb" or "#rrggbbaa" → [r, g, b, a]. */
export function parseHexColor(hex: string): Rgba | null {
  const m = /^#?([\da-f]{3,4}|[\da-f]{6}|[\da-f]{8})$/i.exec(hex.trim());
  if (!m) return null;
  let h = m[1]!;
  if (h.length <= 4) h = [...h].map((c) => c + c).join('');
  if (h.length === 6) h += 'ff';
  return [0, 2, 4, 6].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgba;
}
