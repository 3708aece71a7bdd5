import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync, inflateRawSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SafeZip } from '../../src/core/convert/safe-zip';
import { countPages } from '../../src/core/modules/pdf-scan/scan';
import { threeObjectsInAStream } from '../fixtures/pdf-structures';
import { makeZip } from '../fixtures/zip';

/**
 * Decompression of hostile documents happens off the event loop: while a large stream or zip entry inflates, the
 * server keeps answering. Measured as the longest gap between 1 ms timers during the work, as a share of the work's
 * own time in the same try: inflated on the loop, one gap is nearly all of it; in the thread pool, gaps are the
 * machine's noise. Both grow together on a busy machine, so no figure of this machine's speed is assumed (best of
 * five tries: a busy machine must stall the loop in every try to decide).
 */
async function longestGapShare(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  try {
    await new Promise((r) => setTimeout(r, 5));
    const started = performance.now();
    last = started;
    await work();
    const ended = performance.now();
    longest = Math.max(longest, ended - last);
    return longest / (ended - started);
  } finally {
    clearInterval(timer);
  }
}

const best = async (n: number, f: () => Promise<number> | number) => {
  let min = Infinity;
  for (let i = 0; i < n; i++) min = Math.min(min, await f());
  return min;
};
/** One page whose objects sit in an object stream padded with 30 MB of comment lines (under the scan's 32 MB cap). */
function paddedObjectStreamPdf(): { file: string; deflated: Buffer } {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
  ];
  let body = '';
  const offsets: number[] = [];
  for (const o of objects) {
    offsets.push(body.length);
    body += `${o}\n`;
  }
  const header = offsets.map((at, i) => `${i + 1} ${at}`).join(' ') + '\n';
  const pad = '% padding of an object stream, line after line, to make it large\n';
  const data = Buffer.concat([
    Buffer.from(header + body),
    Buffer.from(pad.repeat(Math.floor((30 << 20) / pad.length))),
  ]);
  const deflated = deflateSync(data);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'docflow-objstm-')), 'padded.pdf');
  writeFileSync(file, threeObjectsInAStream(deflated, 3, header.length));
  return { file, deflated };
}

describe('no synchronous decompression on the event loop', () => {
  it('pdf-scan inflates a 30 MB object stream in the thread pool and still counts its page', async () => {
    const { file, deflated } = paddedObjectStreamPdf();
    // The work is mostly inflation: were it on the loop, one gap would be most of the work's time.
    expect(inflateSync(deflated).length).toBeGreaterThan(30_000_000);
    expect((await countPages(file, {})).pages).toBe(1);
    const share = await best(5, () => longestGapShare(() => countPages(file, {})));
    expect(share, `longest gap ${(share * 100).toFixed(0)} % of the work`).toBeLessThan(0.5);
  }, 60_000);

  it('an EPUB entry of 60 MB unpacks in the thread pool', async () => {
    const line = '<p>Chapter text that repeats, as a padded e-book would.</p>\n';
    const chapter = Buffer.from(line.repeat(Math.ceil((60 << 20) / line.length)));
    const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-epub-'));
    const file = path.join(dir, 'big.epub');
    writeFileSync(file, makeZip([{ name: 'OEBPS/ch1.xhtml', data: chapter }]));
    const zip = await SafeZip.open(file);
    try {
      const entry = zip.find('OEBPS/ch1.xhtml')!;
      const raw = readFileSync(file).subarray(30 + entry.name.length, 30 + entry.name.length + entry.compressedSize);
      expect(inflateRawSync(raw).length).toBe(chapter.length);
      const read = async () => {
        const z = await SafeZip.open(file);
        try {
          expect((await z.read(z.find('OEBPS/ch1.xhtml')!)).length).toBe(chapter.length);
        } finally {
          await z.close();
        }
      };
      const share = await best(5, () => longestGapShare(read));
      expect(share, `longest gap ${(share * 100).toFixed(0)} % of the work`).toBeLessThan(0.5);
    } finally {
      await zip.close();
    }
  }, 60_000);
});
