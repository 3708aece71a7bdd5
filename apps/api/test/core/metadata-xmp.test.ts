import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engines } from '../../src/core/engines';
import type { MetadataUpdate } from '../../src/core/operations/pdf/interfaces';
import * as ops from '../../src/core/operations/pdf';
import { processingAppForSuite } from '../fixtures/api';
import { testEngines, testJob, workspacesDisposedAfterEach } from '../fixtures/engines';
import {
  OLD,
  ghostscriptXmpPdf,
  infoOf,
  xmpOf,
  xmpPdf,
  xmpProperties,
  type XmpFixture,
} from '../fixtures/metadata-pdfs';
import { qpdfCheck } from '../fixtures/pdfs';
import { saveBody } from '../fixtures/results';

/** POST /pdf/metadata/update keeps the XMP packet in step with the Info dictionary. */

let engines: Engines;
const workspaces = workspacesDisposedAfterEach();
beforeAll(() => {
  engines = testEngines();
});
afterAll(() => engines.close());

async function update(file: string, fields: MetadataUpdate): Promise<string> {
  const { job, ws } = await testJob(engines);
  workspaces.push(ws);
  const input = await ops.preparePdf(
    job,
    { path: file, filename: path.basename(file), size: statSync(file).size },
    { label: 'file' },
  );
  return (await ops.updateMetadata(job, input, fields)).path;
}

const NEW = {
  title: `Q&A <draft> "quoted" 'single' é`,
  author: 'Zoë & <Co>',
  subject: 'Budget > forecast & "plan"',
  keywords: `alpha & beta, <gamma>; "delta"`,
};
const modified = new Date('2024-05-06T07:08:09Z');

describe('a document with XMP', () => {
  it.each<[XmpFixture]>([['acrobat'], ['acrobat-compressed']])(
    '%s: Info and XMP both hold the new values, the rest of the packet is kept',
    async (kind) => {
      const source = await xmpPdf(kind);
      const before = Math.floor(Date.now() / 1000) * 1000; // XMP dates may have whole seconds
      const out = await update(source, { ...NEW, modificationDate: modified });
      const after = Date.now();
      const info = infoOf(out);
      expect(info).toMatchObject({
        Title: NEW.title,
        Author: NEW.author,
        Subject: NEW.subject,
        Keywords: NEW.keywords,
      });
      const xmp = xmpProperties(xmpOf(out));
      // One occurrence each: the old values are gone, wherever and however they were written.
      expect(xmp['dc:title']).toEqual([[NEW.title]]);
      expect(xmp['dc:creator']).toEqual([[NEW.author]]);
      expect(xmp['dc:description']).toEqual([[NEW.subject]]);
      expect(xmp['pdf:Keywords']).toEqual([NEW.keywords]);
      expect(xmp['dc:subject']).toEqual([['alpha & beta', '<gamma>', '"delta"']]);
      expect(xmp['xmp:ModifyDate']).toEqual(['2024-05-06T07:08:09Z']);
      expect(xmp['xmp:MetadataDate']).toHaveLength(1);
      // Stamped by this update: between the moments before and after it.
      const stamped = Date.parse(xmp['xmp:MetadataDate']![0] as string);
      expect(stamped).toBeGreaterThanOrEqual(before);
      expect(stamped).toBeLessThanOrEqual(after);
      // Not asked: kept as they were (attribute form included), with everything else in the packet.
      expect(xmp['pdf:Producer']).toEqual([OLD.producer]);
      expect(xmp['xmp:CreatorTool']).toEqual([OLD.creator]);
      expect(xmp['xmp:CreateDate']).toEqual(['2020-01-02T03:04:05Z']);
      expect(xmp).toMatchObject({
        'pdfaid:part': ['2'],
        'pdfaid:conformance': ['B'],
        'acme:Project': ['Apollo & Gemini'],
        'dc:format': ['application/pdf'],
      });
      expect(qpdfCheck(out).ok).toBe(true);
    },
  );

  it('escapes the special characters in the packet itself', async () => {
    const packet = xmpOf(await update(await xmpPdf('acrobat'), NEW));
    expect(packet).toContain(
      '<rdf:li xml:lang="x-default">Q&amp;A &lt;draft&gt; &quot;quoted&quot; &apos;single&apos; é</rdf:li>',
    );
    expect(packet).toContain('<rdf:li>Zoë &amp; &lt;Co&gt;</rdf:li>');
    expect(packet).not.toContain(NEW.title);
  });

  it('a cleared field is removed from XMP too; a control character is dropped, the packet stays well-formed', async () => {
    const out = await update(await xmpPdf('acrobat'), {
      subject: null,
      producer: null,
      keywords: null,
      title: 'Bell\u0007 title',
    });
    expect(infoOf(out).Subject).toBeUndefined();
    const xmp = xmpProperties(xmpOf(out));
    expect(xmp['dc:description']).toBeUndefined();
    expect(xmp['pdf:Producer']).toBeUndefined();
    expect(xmp['pdf:Keywords']).toBeUndefined();
    expect(xmp['dc:subject']).toBeUndefined();
    expect(xmp['dc:title']).toEqual([['Bell title']]);
    expect(xmp['dc:creator']).toEqual([[OLD.author]]);
  });

  it('a packet written by Ghostscript (single quotes, empty tags, one line) is edited in place', async () => {
    const src = await ghostscriptXmpPdf();
    expect(xmpProperties(xmpOf(src))['dc:title']).toEqual([[OLD.title]]);
    const out = await update(src, {
      ...NEW,
      producer: 'DocFlow',
      creator: 'Writer & Co',
      creationDate: new Date('2019-09-09T09:09:09Z'),
    });
    const xmp = xmpProperties(xmpOf(out));
    expect(xmp).toMatchObject({
      'dc:title': [[NEW.title]],
      'dc:creator': [[NEW.author]],
      'pdf:Producer': ['DocFlow'],
      'xmp:CreatorTool': ['Writer & Co'],
      'xmp:CreateDate': ['2019-09-09T09:09:09Z'],
      'dc:format': ['application/pdf'],
    });
    expect(xmp['xmpMM:DocumentID']).toHaveLength(1);
    expect(infoOf(out)).toMatchObject({ Producer: 'DocFlow', Creator: 'Writer & Co' });
  });

  it('a packet that cannot be edited safely (a DTD) is replaced by a fresh one with the whole Info dictionary', async () => {
    const out = await update(await xmpPdf('unparsable'), { title: NEW.title, modificationDate: modified });
    const packet = xmpOf(out);
    expect(packet).not.toMatch(/DOCTYPE|ENTITY|boom/);
    expect(packet).toMatch(/^<\?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"\?>/);
    expect(xmpProperties(packet)).toEqual({
      'dc:title': [[NEW.title]],
      'dc:creator': [[OLD.author]],
      'dc:description': [[OLD.subject]],
      'pdf:Keywords': [OLD.keywords],
      'dc:subject': [['old', 'stale']],
      'xmp:CreatorTool': [OLD.creator],
      'pdf:Producer': [OLD.producer],
      'xmp:CreateDate': ['2020-01-02T03:04:05Z'],
      'xmp:ModifyDate': ['2024-05-06T07:08:09Z'],
      'xmp:MetadataDate': [expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)],
    });
  });
});

describe('a document without XMP', () => {
  it('gets the Info dictionary updated and no XMP added', async () => {
    const src = await xmpPdf('none');
    expect(xmpOf(src)).toBe('');
    const out = await update(src, { ...NEW, modificationDate: modified });
    expect(infoOf(out)).toMatchObject({ Title: NEW.title, Author: NEW.author });
    expect(xmpOf(out)).toBe('');
  });
});

describe('POST /pdf/metadata/update', () => {
  const api = processingAppForSuite();

  it('200: the answer carries the new values in Info and XMP; reading metadata still reads Info', async () => {
    const res = await api.post('/pdf/metadata/update', { title: NEW.title, author: NEW.author, clear: 'keywords' }, [
      { content: await xmpPdf('acrobat') },
    ]);
    expect(res.statusCode).toBe(200);
    const out = saveBody(res.rawPayload);
    expect(infoOf(out)).toMatchObject({ Title: NEW.title, Author: NEW.author });
    const xmp = xmpProperties(xmpOf(out));
    expect(xmp).toMatchObject({ 'dc:title': [[NEW.title]], 'dc:creator': [[NEW.author]], 'pdfaid:part': ['2'] });
    expect(xmp['pdf:Keywords']).toBeUndefined();
    expect(xmp['xmp:ModifyDate']).toHaveLength(1);
    const read = await api.post('/pdf/metadata', {}, [{ content: res.rawPayload }]);
    expect(read.json()).toMatchObject({ data: { title: NEW.title, author: NEW.author, keywords: null } });
  });
});
