export interface JpegHeader {
  /** The SOF marker (0xc0 baseline, 0xc1 extended, 0xc2 progressive; others are lossless, hierarchical or arithmetic). */
  sof: number;
  precision: number;
  width: number;
  height: number;
  components: number;
  /** The Adobe APP14 colour transform (0: none, i.e. RGB or CMYK as stored), when present. */
  adobeTransform?: number;
  /** An EOI marker closes the data (a truncated download lacks it). */
  complete: boolean;
}

/**
 * Walk the marker segments up to the first scan. Only the header is trusted here; the entropy-coded data is checked by
 * a cheap reduced-size decode elsewhere. null when the segment structure is broken.
 */
export function readJpegHeader(buf: Buffer): JpegHeader | null {
  if (buf.length < 4 || buf[0] !== 0xff || buf[1] !== 0xd8) return null;
  let at = 2;
  let sofInfo: Omit<JpegHeader, 'adobeTransform' | 'complete'> | null = null;
  let adobeTransform: number | undefined;
  while (at + 4 <= buf.length) {
    if (buf[at] !== 0xff) return null;
    const marker = buf[at + 1]!;
    // Fill bytes and stand-alone markers carry no length.
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const len = buf.readUInt16BE(at + 2);
    if (len < 2 || at + 2 + len > buf.length) return null;
    const seg = buf.subarray(at + 4, at + 2 + len);
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof && !sofInfo) {
      if (seg.length < 6) return null;
      sofInfo = {
        sof: marker,
        precision: seg[0]!,
        height: seg.readUInt16BE(1),
        width: seg.readUInt16BE(3),
        components: seg[5]!,
      };
    } else if (marker === 0xee && seg.length >= 12 && seg.toString('latin1', 0, 5) === 'Adobe') {
      adobeTransform = seg[11];
    } else if (marker === 0xda) {
      break;
    }
    at += 2 + len;
  }
  if (!sofInfo) return null;
  // Some encoders pad after EOI; look for it near the end rather than exactly at it.
  const tail = buf.subarray(Math.max(0, buf.length - 1024));
  let complete = false;
  for (let i = tail.length - 2; i >= 0; i--) {
    if (tail[i] === 0xff && tail[i + 1] === 0xd9) {
      complete = true;
      break;
    }
  }
  return { ...sofInfo, ...(adobeTransform === undefined ? {} : { adobeTransform }), complete };
}

/** Data a PDF reader's DCTDecode takes as it is: 8-bit baseline or progressive Huffman, grey or three-component. */
export const embeddableAsIs = (h: JpegHeader) =>
  (h.sof === 0xc0 || h.sof === 0xc1 || h.sof === 0xc2) &&
  h.precision === 8 &&
  (h.components === 1 || h.components === 3) &&
  h.width > 0 &&
  h.height > 0;
