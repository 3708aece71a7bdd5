import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createToolRunner } from '../../src/core/run-tool';
import { Limiter } from '../../src/core/limiter';
import { ghostscriptModule } from '../../src/core/modules/ghostscript/index';
import { processingAppForSuite } from '../fixtures/api';
import { numberedPdf } from '../fixtures/pdfs';
import { saveBody } from '../fixtures/results';

/**
 * A PostScript program that is also "a PDF" to a sniff reading `%PDF-` anywhere in the first 1 KB. Run by Ghostscript,
 * it draws its own page: the text below in an answer means the upload was executed as PostScript.
 */
const MARK = 'POSTSCRIPT RAN';
const polyglot = Buffer.from(
  [
    '%!PS-Adobe-3.0',
    '%%Title: (%PDF-1.7 in a comment)',
    `/Helvetica findfont 24 scalefont setfont 72 700 moveto (${MARK}) show showpage`,
    '%%EOF',
    '',
  ].join('\n'),
);
const dosEps = Buffer.concat([Buffer.from([0xc5, 0xd0, 0xd3, 0xc6]), Buffer.alloc(28), polyglot]);
const text = (pdf: Buffer) => execFileSync('pdftotext', [saveBody(pdf), '-'], { encoding: 'utf8' });

describe('PostScript never reaches Ghostscript', () => {
  const api = processingAppForSuite({ allowedEndpoints: ['pdf', 'ocr'] });
  const routes: Array<[string, Record<string, string>]> = [
    ['/pdf/repair', {}],
    ['/pdf/compress', { level: 'high' }],
    ['/pdf/to-pdfa', {}],
    ['/pdf/to-images', {}],
    ['/pdf/rotate', { angle: '90' }],
    ['/ocr/extract', {}],
  ];

  it.each(routes)(
    '%s refuses a PostScript program carrying a PDF header (415 UNSUPPORTED_FORMAT)',
    async (url, fields) => {
      for (const [name, bytes] of [
        ['doc.pdf', polyglot],
        ['doc.pdf', dosEps],
      ] as const) {
        const res = await api.post(url, fields, [{ content: bytes, filename: name, contentType: 'application/pdf' }]);
        expect(res.statusCode, `${url} ${res.body.slice(0, 200)}`).toBe(415);
        expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_FORMAT' });
        expect(res.json().error).toMatch(/PostScript|\be?ps\b/i);
      }
    },
  );

  it('a damaged real PDF is still repaired', async () => {
    const bytes = readFileSync(await numberedPdf(2, 'Repair', { objectStreams: false }));
    // The cross-reference table points nowhere: a reader must find the objects by scanning.
    const at = bytes.lastIndexOf(Buffer.from('startxref'));
    const damaged = Buffer.concat([bytes.subarray(0, at), Buffer.from('startxref\n999999\n%%EOF\n')]);
    const res = await api.post('/pdf/repair', {}, [{ content: damaged, filename: 'damaged.pdf' }]);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(text(res.rawPayload)).toContain('Repair');
  });
});

describe('the Ghostscript engine itself', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-gs-ps-'));
  const engine = ghostscriptModule.create(ghostscriptModule.configSchema.parse({}), {
    tools: createToolRunner({ limiter: new Limiter({ concurrency: 2, queueSize: 10 }), timeoutMs: 30_000 }),
    maxOutputBytes: 64 << 20,
  });

  it('given PostScript directly (no sniff before it), runs none of it: INVALID_PDF, nothing written', async () => {
    const input = path.join(dir, 'in.pdf');
    writeFileSync(input, polyglot);
    const output = path.join(dir, 'out.pdf');
    for (const op of ['repair', 'compress'] as const) {
      const run =
        op === 'repair'
          ? engine.repair!(input, output, { scratch: dir })
          : engine.compress!(input, output, { level: 'high' }, { scratch: dir });
      await expect(run).rejects.toMatchObject({ code: 'INVALID_PDF' });
      expect(existsSync(output)).toBe(false);
    }
  });
});
