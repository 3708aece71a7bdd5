import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { zipOutcome } from '../../src/lib/outcome';
import { sendOutcome } from '../../src/lib/send-result';
import { unzip } from '../fixtures/results';

/** Zip answers: small sets are read into memory at once, large ones streamed; both give the same archive. */
describe('zip outcomes', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-zip-'));
  const files = Array.from({ length: 30 }, (_, i) => {
    const p = path.join(dir, `f${i}`);
    writeFileSync(p, Buffer.alloc(1000 + i * 37, i));
    return { path: p, name: i % 10 === 0 ? 'same.pdf' : `part-${i}.${i % 2 ? 'pdf' : 'txt'}` };
  });
  const app = Fastify();
  app.get('/zip', (req, reply) => {
    const q = req.query as { mem?: string };
    return sendOutcome(req, reply, zipOutcome(files, 'out.zip', { inMemoryBytes: q.mem === '1' ? Infinity : 0 }));
  });
  afterAll(() => app.close());

  for (const mem of ['1', '0']) {
    it(`${mem === '1' ? 'in memory' : 'streamed'}: every file byte for byte, unique names, the right length`, async () => {
      const res = await app.inject({ url: `/zip?mem=${mem}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-file-count']).toBe('30');
      expect(res.headers['content-disposition']).toContain('out.zip');
      const body = res.rawPayload;
      // Text entries are deflated, so the final size is not known in advance and no Content-Length is promised.
      if (res.headers['content-length'] !== undefined) expect(Number(res.headers['content-length'])).toBe(body.length);
      const z = unzip(body);
      expect(z.names).toHaveLength(30);
      expect(new Set(z.names.map((n) => n.toLowerCase())).size).toBe(30);
      expect(z.names.filter((n) => n.startsWith('same'))).toEqual(['same.pdf', 'same (2).pdf', 'same (3).pdf']);
      z.paths.forEach((p, i) => expect(readFileSync(p).equals(readFileSync(files[i]!.path))).toBe(true));
    });
  }
});
