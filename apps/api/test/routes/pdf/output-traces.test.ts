import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { processingAppForSuite } from '../../fixtures/api';
import { testDocument } from '../../fixtures/documents';
import { numberedPdf } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';

/** Ghostscript by its full path, as an operator may set it: a path the output must not show either. */
const gsPath = execFileSync('sh', ['-c', 'command -v gs'], { encoding: 'utf8' }).trim();

/** What of the server a file could carry: the tool's command line, its binary's path, scratch paths, our name. */
function tracesIn(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  const found = ['%%Invocation', '%%+', '-dSAFER', '-sOutputFile', gsPath, '/tmp/', os.tmpdir()].filter((s) =>
    text.includes(s),
  );
  if (/docflow/i.test(text)) found.push('docflow');
  return found;
}

describe('files made by Ghostscript carry nothing of the server', () => {
  const api = processingAppForSuite({
    env: { GHOSTSCRIPT_BIN: gsPath, PDF_REPAIR_ENGINES: 'ghostscript' },
  });

  // Compression answers Ghostscript's file only when it is the smaller: an image-heavy PDF, so that it is.
  const heavy = () => testDocument('image-heavy.pdf');
  const text = () => numberedPdf(2, 'Trace');
  it.each([
    ['/pdf/compress', { level: 'medium' }, heavy],
    ['/pdf/compress', { level: 'high' }, heavy],
    ['/pdf/repair', {}, text],
    ['/pdf/to-pdfa', {}, text],
  ])('%s %o: no command line, path or tool name, and still a whole PDF', async (url, fields, input) => {
    const bytes = readFileSync(await input());
    const res = await api.post(url, fields, [{ content: bytes, filename: 'in.pdf' }]);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const out = res.rawPayload;
    expect(out.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(tracesIn(out)).toEqual([]);
    // Blanked in place: the cross-reference offsets still hold (qpdf finds no damage) and the text reads back.
    const file = saveBody(out);
    const check = spawnSync('qpdf', ['--check', file], { encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    expect(check.stderr).not.toMatch(/reconstruct|damaged|xref/i);
    if (input === text) expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })).toContain('Trace Page 2');
    else expect(out.length).toBeLessThan(bytes.length); // Ghostscript's output, not the input given back
  });
});
