import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { TVerifySignaturesResult } from '@docflow/contracts';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { errorOf, processingAppForSuite } from '../../fixtures/api';
import { appendPageIncrementally, sharedTestPki, startTestTsa } from '../../fixtures/certificates';
import { encryptedPdf, formPdf, notAPdf, numberedPdf, pageCount, run } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';

/**
 * POST /pdf/sign and POST /pdf/verify-signatures, proved with tools nobody here wrote: poppler's pdfsig checks each
 * signature and whether the document was changed after it, openssl prints the CMS. Certificates, the CA and the
 * time-stamp authority are made by the tests (fixtures/certificates.ts).
 */
const pki = sharedTestPki();
const tsa = await startTestTsa(pki);
afterAll(() => tsa.close());

const api = processingAppForSuite({
  env: { SIGN_TRUST_ANCHORS: pki.caPem, SIGN_TSA_URL: tsa.url, SIGN_TSA_ALLOW_PRIVATE: 'true' },
});
const untrusting = processingAppForSuite();
// The authority's address obeys the rules of every URL the server fetches: a loopback one only when allowed.
const publicOnly = processingAppForSuite({ env: { SIGN_TSA_URL: tsa.url } });
// An authority that does not answer (nothing listens on the discard port).
const silentTsa = processingAppForSuite({
  env: { SIGN_TSA_URL: 'http://127.0.0.1:9/', SIGN_TSA_ALLOW_PRIVATE: 'true' },
});

const cert = (p12 = pki.leafP12) => ({ field: 'certificate', content: p12, filename: 'signer.p12' });

/** pdfsig's report per signature, as lines (pdfsig exits non-zero when a signature is bad, still printing it). */
function pdfsig(file: string): string[] {
  let out: string;
  try {
    out = execFileSync('pdfsig', [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    out = (err as { stdout: string }).stdout;
  }
  return out.split(/^Signature #\d+:$/m).slice(1);
}

/** The CMS of the n-th signature, printed by openssl. */
function cmsOf(file: string, n = 0): string {
  const bytes = readFileSync(file);
  const holes = [...bytes.toString('latin1').matchAll(/\/Contents\s*<([0-9a-fA-F]+)>/g)].filter(
    (m) => m[1]!.length > 1000,
  );
  const der = saveBody(Buffer.from(holes[n]![1]!.replace(/(00)+$/, ''), 'hex'), 'der');
  return run('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', der]);
}

async function sign(
  pdf: string | Buffer,
  fields: Record<string, string | number | boolean> = {},
  p12 = pki.leafP12,
  app = api,
) {
  const res = await app.post('/pdf/sign', { password: pki.p12Password, ...fields }, [{ content: pdf }, cert(p12)]);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return saveBody(res.rawPayload);
}

async function verify(file: string, app = api) {
  const res = await app.post('/pdf/verify-signatures', {}, [{ content: file }]);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return (res.json() as { data: TVerifySignaturesResult }).data;
}

describe('POST /pdf/sign', () => {
  it('200: an invisible PAdES signature pdfsig finds valid over the whole document; the CMS has signing-certificate-v2 and no signingTime', async () => {
    const signed = await sign(await numberedPdf(2), {
      reason: 'Approved',
      location: 'Lyon',
      contact: 'jane@example.test',
    });
    const [s1, ...rest] = pdfsig(signed);
    expect(rest).toHaveLength(0);
    expect(s1).toContain('Signature Validation: Signature is Valid.');
    expect(s1).toContain('Total document signed');
    expect(s1).toContain('Signature Type: ETSI.CAdES.detached');
    expect(s1).toContain('Signer Certificate Common Name: Jane Signer');
    expect(pageCount(signed)).toBe(2);
    const cms = cmsOf(signed);
    expect(cms).toMatch(/signingCertificateV2/);
    expect(cms).toMatch(/messageDigest/);
    expect(cms).toMatch(/contentType/);
    expect(cms).not.toMatch(/signingTime/);
    const text = readFileSync(signed, 'latin1');
    expect(text).toContain('/Reason (Approved)');
    expect(text).toContain('/Location (Lyon)');
    expect(text).toMatch(/\/M \(D:\d{14}/);
    // An incremental update: the bytes sent are the file's first bytes, unchanged.
    const original = readFileSync(await numberedPdf(2));
    expect(readFileSync(signed).subarray(0, original.length).equals(original)).toBe(true);
  });

  it('200 visible: a widget on the page asked, in the rectangle asked, whose appearance draws ink there', async () => {
    const signed = await sign(await numberedPdf(2), {
      visible: true,
      page: 2,
      x: 100,
      y: 100,
      width: 220,
      height: 70,
      reason: 'Contract',
    });
    expect(pdfsig(signed)[0]).toContain('Signature is Valid.');
    const doc = await PDFDocument.load(readFileSync(signed));
    const annots = doc.getPage(1).node.Annots();
    expect(annots?.size()).toBe(1);
    const widget = doc.context.lookup(annots!.get(0)) as unknown as { get(k: unknown): unknown };
    const rect = String(widget.get(doc.context.obj('Rect')));
    expect(rect.replace(/\s+/g, ' ')).toBe('[ 100 100 320 170 ]');
    // Rendered (annotations included), the rectangle has dark pixels and the page around it none.
    const pgm = (x: number, y: number, w: number, h: number) => {
      const base = saveBody(Buffer.alloc(0), 'x');
      execFileSync('pdftoppm', [
        '-gray',
        '-r',
        '72',
        '-f',
        '2',
        '-l',
        '2',
        '-x',
        String(x),
        '-y',
        String(842 - y - h),
        '-W',
        String(w),
        '-H',
        String(h),
        '-singlefile',
        signed,
        base,
      ]);
      const img = readFileSync(`${base}.pgm`);
      const pixels = img.subarray(img.length - w * h);
      return pixels.filter((v) => v < 128).length;
    };
    expect(pgm(100, 100, 220, 70)).toBeGreaterThan(200);
    expect(pgm(350, 100, 200, 70)).toBe(0);
  });

  it("200 visible with an image: the image is drawn in the signature's box, and a PNG with transparency keeps it", async () => {
    const png = await sharp({
      create: { width: 120, height: 60, channels: 4, background: { r: 200, g: 0, b: 0, alpha: 0.8 } },
    })
      .png()
      .toBuffer();
    const res = await api.post(
      '/pdf/sign',
      { password: pki.p12Password, visible: true, x: 50, y: 50, width: 240, height: 80 },
      [
        { content: await numberedPdf(1) },
        cert(),
        { field: 'image', content: png, filename: 'seal.png', contentType: 'image/png' },
      ],
    );
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const signed = saveBody(res.rawPayload);
    expect(pdfsig(signed)[0]).toContain('Signature is Valid.');
    expect(run('qpdf', ['--check', signed])).toMatch(/No syntax or stream encoding errors/);
    // pdfimages lists the image (and its soft mask) on page 1, inside the appearance.
    const list = run('pdfimages', ['-list', signed]);
    expect(list).toMatch(/\s1\s+\d+\s+image\s+120\s+60/);
    expect(list).toMatch(/smask\s+120\s+60/);
    const notVisible = await api.post('/pdf/sign', { password: pki.p12Password }, [
      { content: await numberedPdf(1) },
      cert(),
      { field: 'image', content: png, filename: 'seal.png' },
    ]);
    expect(errorOf(notVisible)).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(errorOf(notVisible).error).toMatch(/^image: /);
  });

  it('200 twice: the second signature is an incremental update, and pdfsig and our verification find both valid', async () => {
    const first = await sign(await numberedPdf(1));
    const second = await sign(first, { visible: true }, pki.otherP12);
    const [s1, s2] = pdfsig(second);
    expect(s1).toContain('Signature is Valid.');
    expect(s1).toContain('Not total document signed');
    expect(s1).toContain('Jane Signer');
    expect(s2).toContain('Signature is Valid.');
    expect(s2).toContain('Total document signed');
    expect(s2).toContain('Omar Countersigner');
    const report = await verify(second);
    expect(report.count).toBe(2);
    expect(report.signatures.map((s) => [s.signer?.commonName, s.status, s.integrity, s.coversWholeDocument])).toEqual([
      ['Jane Signer', 'valid', true, false],
      ['Omar Countersigner', 'valid', true, true],
    ]);
    expect(report.signatures.map((s) => s.field)).toEqual(['Signature1', 'Signature2']);
  });

  it("200 with a time-stamp from the operator's authority: the token is in the CMS and the verification reads its time", async () => {
    const before = tsa.queries();
    const pdf = await numberedPdf(1);
    const started = Date.now();
    const signed = await sign(pdf, { timestamp: true });
    const ended = Date.now();
    expect(tsa.queries()).toBe(before + 1);
    expect(pdfsig(signed)[0]).toContain('Signature is Valid.');
    expect(cmsOf(signed)).toMatch(/id-smime-aa-timeStampToken/);
    const [s] = (await verify(signed)).signatures;
    expect(s).toMatchObject({
      status: 'valid',
      signingTimeSource: 'timestamp',
      timestamp: { authority: 'DocFlow Test TSA' },
    });
    // The authority's time, taken during the call (its token states whole seconds).
    const at = Date.parse(s!.signingTime!);
    expect(at).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000);
    expect(at).toBeLessThanOrEqual(ended);
  });

  it('200 with an ECDSA key, with a PKCS#12 in the older 3DES form, and on a PDF that already has a form (its fields kept)', async () => {
    const ec = await sign(await numberedPdf(1, 'Plain', { objectStreams: false }), {}, pki.ecP12);
    expect(pdfsig(ec)[0]).toContain('Signature is Valid.');
    expect(pdfsig(ec)[0]).toContain('Elliptic Signer');
    const legacy = await sign(await numberedPdf(1), {}, pki.legacyP12);
    expect(pdfsig(legacy)[0]).toContain('Signature is Valid.');
    const form = await sign(await formPdf(), { visible: true });
    expect(pdfsig(form)[0]).toContain('Signature is Valid.');
    expect(run('qpdf', ['--check', form])).toMatch(/No syntax or stream encoding errors/);
    const fields = (await PDFDocument.load(readFileSync(form)))
      .getForm()
      .getFields()
      .map((f) => f.getName());
    const before = (await PDFDocument.load(readFileSync(await formPdf())))
      .getForm()
      .getFields()
      .map((f) => f.getName());
    expect(fields).toEqual([...before, 'Signature1']);
  });

  it('202 with async=true: the job signs with the certificate sent alongside, and its result is the signed PDF', async () => {
    const res = await api.post('/pdf/sign', { async: 'true', password: pki.p12Password }, [
      { content: await numberedPdf(1) },
      cert(),
    ]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(202);
    const id = (res.json() as { data: { jobId: string } }).data.jobId;
    const get = () =>
      api.t.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}`, headers: { 'x-api-key': api.apiKey } });
    let job: { status: string; result: { url: string } | null } | undefined;
    for (let i = 0; i < 600; i++) {
      job = (await get()).json().data;
      if (['succeeded', 'failed', 'cancelled'].includes(job!.status)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(job).toMatchObject({ status: 'succeeded' });
    const out = await api.t.app.inject({ method: 'GET', url: job!.result!.url, headers: { 'x-api-key': api.apiKey } });
    const [s1] = pdfsig(saveBody(out.rawPayload));
    expect(s1).toContain('Signature is Valid.');
    expect(s1).toContain('Total document signed');
  });

  describe('4xx naming the problem', () => {
    it('422 CERTIFICATE_PASSWORD_WRONG for a wrong password', async () => {
      const res = await api.post('/pdf/sign', { password: 'nope' }, [{ content: await numberedPdf(1) }, cert()]);
      expect(errorOf(res)).toMatchObject({ status: 422, code: 'CERTIFICATE_PASSWORD_WRONG' });
      expect(errorOf(res).error).toMatch(/^password: /);
    });

    it('422 CERTIFICATE_EXPIRED for a certificate past its end date', async () => {
      const res = await api.post('/pdf/sign', { password: pki.p12Password }, [
        { content: await numberedPdf(1) },
        cert(pki.expiredP12),
      ]);
      expect(errorOf(res)).toMatchObject({ status: 422, code: 'CERTIFICATE_EXPIRED' });
      expect(errorOf(res).error).toMatch(/expired on 2021-01-01/);
    });

    it('422 INVALID_CERTIFICATE for a file that is no PKCS#12, and INVALID_INPUT with no certificate at all', async () => {
      const notP12 = await api.post('/pdf/sign', { password: 'x' }, [
        { content: await numberedPdf(1) },
        { field: 'certificate', content: await numberedPdf(1), filename: 'cert.p12' },
      ]);
      expect(errorOf(notP12)).toMatchObject({ status: 422, code: 'INVALID_CERTIFICATE' });
      expect(errorOf(notP12).error).toMatch(/^certificate: /);
      const none = await api.post('/pdf/sign', { password: 'x' }, [{ content: await numberedPdf(1) }]);
      expect(errorOf(none)).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
      expect(errorOf(none).error).toMatch(/^certificate: /);
    });

    it('422 for an encrypted PDF and for a file that is no PDF', async () => {
      for (const kind of ['owner', 'user'] as const) {
        const res = await api.post('/pdf/sign', { password: pki.p12Password }, [
          { content: await encryptedPdf(kind) },
          cert(),
        ]);
        expect(errorOf(res)).toMatchObject({ status: 422, code: 'INVALID_PDF' });
        expect(errorOf(res).error).toMatch(/encrypted/);
      }
      const junk = await api.post('/pdf/sign', { password: pki.p12Password }, [{ content: await notAPdf() }, cert()]);
      expect(junk.statusCode).toBeGreaterThanOrEqual(400);
      expect(junk.statusCode).toBeLessThan(500);
    });

    it('422 for a time-stamp asked of a server with no time-stamp authority, and for a page the PDF lacks', async () => {
      const res = await untrusting.post('/pdf/sign', { password: pki.p12Password, timestamp: true }, [
        { content: await numberedPdf(1) },
        cert(),
      ]);
      expect(errorOf(res)).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
      expect(errorOf(res).error).toMatch(/^timestamp: /);
      const page = await api.post('/pdf/sign', { password: pki.p12Password, visible: true, page: 5 }, [
        { content: await numberedPdf(2) },
        cert(),
      ]);
      expect(errorOf(page)).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
      expect(errorOf(page).error).toMatch(/^page: /);
    });
  });
});

describe('POST /pdf/timestamp', () => {
  it('200: a document time-stamp (ETSI.RFC3161) appended after a signature; pdfsig and our verification find both intact', async () => {
    const signed = await sign(await numberedPdf(1));
    const res = await api.post('/pdf/timestamp', {}, [{ content: signed }]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const stamped = saveBody(res.rawPayload);
    // pdfsig (poppler 22) checks the signature and names the time-stamp's signer and ranges, but does not verify
    // RFC 3161 tokens: openssl ts does, over the bytes the ranges cover.
    const [s1, s2] = pdfsig(stamped);
    expect(s1).toContain('Signature is Valid.');
    expect(s2).toContain('Signer Certificate Common Name: DocFlow Test TSA');
    expect(s2).toContain('Total document signed');
    const bytes = readFileSync(stamped);
    const m = /\/SubFilter\s*\/ETSI\.RFC3161[^]*?\/ByteRange\s*\[\s*0\s+(\d+)\s+(\d+)\s+(\d+)/.exec(
      bytes.toString('latin1'),
    );
    const [b, c, d] = [m![1], m![2], m![3]].map(Number) as [number, number, number];
    const data = saveBody(Buffer.concat([bytes.subarray(0, b), bytes.subarray(c, c + d)]), 'bin');
    const token = saveBody(
      Buffer.from(
        bytes
          .subarray(b + 1, c - 1)
          .toString('latin1')
          .replace(/(00)+$/, ''),
        'hex',
      ),
      'der',
    );
    const check = run('openssl', ['ts', '-verify', '-data', data, '-in', token, '-token_in', '-CAfile', pki.caPem]);
    expect(check).toMatch(/Verification: OK/);
    const report = await verify(stamped);
    expect(report.signatures.map((s) => [s.kind, s.status, s.integrity, s.coversWholeDocument])).toEqual([
      ['signature', 'valid', true, false],
      ['document-timestamp', 'valid', true, true],
    ]);
    expect(report.signatures[1]).toMatchObject({
      signingTimeSource: 'timestamp',
      signer: { commonName: 'DocFlow Test TSA' },
    });
  });

  it('in a pipeline: a page removed, signed with a certificate stored for the account, then time-stamped; both verify, in that order', async () => {
    const stored = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/signing-certificates',
      headers: { authorization: `Bearer ${api.accessToken}` },
      payload: { label: 'Pipeline', pkcs12: readFileSync(pki.leafP12).toString('base64'), password: pki.p12Password },
    });
    expect(stored.statusCode, stored.body).toBe(201);
    const certificateId = stored.json().data.certificate.id as string;
    const before = tsa.queries();
    const res = await api.post(
      '/pipeline',
      {
        stages: JSON.stringify([
          { op: '/pdf/delete-pages', pages: '1' },
          { op: '/pdf/sign', certificateId },
          { op: '/pdf/timestamp' },
        ]),
      },
      [{ content: await numberedPdf(2) }],
    );
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(tsa.queries()).toBe(before + 1);
    const out = saveBody(res.rawPayload);
    expect(pageCount(out)).toBe(1);
    const [s1, s2] = pdfsig(out);
    expect(s1).toContain('Signature is Valid.');
    expect(s1).toContain('Jane Signer');
    expect(s2).toContain('DocFlow Test TSA');
    const report = await verify(out);
    expect(report.signatures.map((s) => [s.kind, s.status, s.integrity, s.coversWholeDocument])).toEqual([
      ['signature', 'valid', true, false],
      ['document-timestamp', 'valid', true, true],
    ]);
    // A time-stamp, like a signature, is followed only by its kind: a rotation after it is refused before any work.
    const late = await api.post(
      '/pipeline',
      { stages: JSON.stringify([{ op: '/pdf/timestamp' }, { op: '/pdf/rotate', angle: 90 }]) },
      [{ content: await numberedPdf(1) }],
    );
    expect(errorOf(late).status).toBe(422);
    expect(tsa.queries()).toBe(before + 1);
  });

  it('422 on a server with no time-stamp authority; 403 URL_NOT_ALLOWED for an authority on a loopback address not allowed; 502 TSA_UNAVAILABLE when it does not answer', async () => {
    const none = await untrusting.post('/pdf/timestamp', {}, [{ content: await numberedPdf(1) }]);
    expect(errorOf(none)).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    const refused = await publicOnly.post('/pdf/sign', { password: pki.p12Password, timestamp: true }, [
      { content: await numberedPdf(1) },
      cert(),
    ]);
    expect(errorOf(refused)).toMatchObject({ status: 403, code: 'URL_NOT_ALLOWED' });
    const silent = await silentTsa.post('/pdf/timestamp', {}, [{ content: await numberedPdf(1) }]);
    expect(errorOf(silent)).toMatchObject({ status: 502, code: 'TSA_UNAVAILABLE' });
    expect(errorOf(silent).error).toMatch(/could not be reached/);
  });
});

describe('POST /pdf/verify-signatures', () => {
  it('without trust anchors: "intact, signer not trusted", never a guess', async () => {
    const signed = await sign(await numberedPdf(1));
    const report = await verify(signed, untrusting);
    expect(report.trustAnchorsConfigured).toBe(false);
    expect(report.signatures[0]).toMatchObject({
      status: 'intact-untrusted',
      trusted: null,
      integrity: true,
      coversWholeDocument: true,
      modifiedAfterSigning: false,
      certificateValidAtSigningTime: true,
      hasSigningCertificateAttribute: true,
      signer: { commonName: 'Jane Signer', issuer: 'CN=DocFlow Test Root CA, O=DocFlow Tests' },
      signingTimeSource: 'pdf',
    });
    expect(report.signatures[0]!.message).toMatch(/intact, signer not trusted/);
  });

  it('a byte changed inside the signed range: pdfsig finds a digest mismatch, our verification "invalid"', async () => {
    const signed = readFileSync(await sign(await numberedPdf(1, 'Plain', { objectStreams: false })));
    const at = signed.indexOf('/Title');
    expect(at).toBeGreaterThan(0);
    const tampered = Buffer.from(signed);
    tampered[at + 1] = 'X'.charCodeAt(0);
    const file = saveBody(tampered);
    expect(pdfsig(file)[0]).toMatch(/Digest Mismatch|Signature is Invalid/);
    const [s] = (await verify(file)).signatures;
    expect(s).toMatchObject({ status: 'invalid', integrity: false });
    expect(s!.message).toMatch(/changed in the signed ranges/);
  });

  it('a page appended by an incremental update after signing: the signature still verifies but no longer covers the document', async () => {
    const signed = readFileSync(await sign(await numberedPdf(1)));
    const file = saveBody(await appendPageIncrementally(signed));
    expect(pageCount(file)).toBe(2);
    const [s1] = pdfsig(file);
    expect(s1).toContain('Signature is Valid.');
    expect(s1).toContain('Not total document signed');
    const [s] = (await verify(file)).signatures;
    expect(s).toMatchObject({
      status: 'valid',
      integrity: true,
      coversWholeDocument: false,
      modifiedAfterSigning: true,
    });
  });

  it('a PDF with no signature: an empty list', async () => {
    const report = await verify(await numberedPdf(1));
    expect(report).toEqual({ signatures: [], count: 0, trustAnchorsConfigured: true });
  });
});
