import { Transform, type TransformCallback } from 'node:stream';

/**
 * Streaming decoders of the two ASCII filters (PDF 32000-1, 7.4.2 and 7.4.3), for measuring content streams whose
 * Flate data is wrapped in them ([/ASCII85Decode /FlateDecode] is common in older files, and the easiest way to hide
 * a flate bomb from a measure that knows only Flate). Malformed input ends the data, as the tools treat it.
 */

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

export class AsciiHexDecoder extends Transform {
  private high = -1;
  private done = false;

  override _transform(chunk: Buffer, _enc: BufferEncoding, next: TransformCallback): void {
    if (this.done) return next();
    const out = Buffer.allocUnsafe(Math.ceil(chunk.length / 2) + 1);
    let n = 0;
    for (const c of chunk) {
      if (isSpace(c)) continue;
      const v = hexValue(c);
      if (v < 0) {
        this.done = true; // '>' or garbage: the end
        break;
      }
      if (this.high < 0) this.high = v;
      else {
        out[n++] = (this.high << 4) | v;
        this.high = -1;
      }
    }
    next(null, out.subarray(0, n));
  }

  override _flush(next: TransformCallback): void {
    // An odd final digit is followed by an implied 0.
    next(null, this.high >= 0 ? Buffer.from([this.high << 4]) : undefined);
  }
}

export class Ascii85Decoder extends Transform {
  private group: number[] = [];
  private done = false;

  override _transform(chunk: Buffer, _enc: BufferEncoding, next: TransformCallback): void {
    if (this.done) return next();
    const out = Buffer.allocUnsafe(chunk.length + 4);
    let n = 0;
    for (const c of chunk) {
      if (isSpace(c)) continue;
      if (c === 0x7a && this.group.length === 0) {
        out.writeUInt32BE(0, n); // 'z': four zero bytes
        n += 4;
        continue;
      }
      if (c < 0x21 || c > 0x75) {
        this.done = true; // '~' of '~>' or garbage: the end
        break;
      }
      this.group.push(c - 0x21);
      if (this.group.length === 5) {
        out.writeUInt32BE(this.value(this.group) >>> 0, n);
        n += 4;
        this.group = [];
      }
    }
    next(null, out.subarray(0, n));
  }

  override _flush(next: TransformCallback): void {
    // A final partial group of k characters gives k-1 bytes, padded with 'u'.
    const k = this.group.length;
    if (k < 2) return next();
    const padded = [...this.group, ...Array<number>(5 - k).fill(84)];
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(this.value(padded) >>> 0, 0);
    next(null, bytes.subarray(0, k - 1));
  }

  private value(g: number[]): number {
    // Over 2^32 (a malformed group) wraps, as lenient readers do.
    return g.reduce((v, d) => v * 85 + d, 0) % 0x1_0000_0000;
  }
}
