import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TJob, TSigningCertificate } from '@docflow/contracts';
import { MAX_STORED_CERTIFICATES } from '@docflow/contracts';
import { signingCertificates } from '../../../src/data/schema/index';
import { createApiKey } from '../../../src/services/api-keys/index';
import { sealerFor } from '../../../src/services/signing-certificates/seal';
import { errorOf, processingAppForSuite } from '../../fixtures/api';
import { sharedTestPki } from '../../fixtures/certificates';
import { form } from '../../fixtures/multipart';
import { numberedPdf } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';
import { createTestUser } from '../../support/api-keys';

/**
 * Signing certificates stored once per account (issue 31): stored through the dashboard's session, encrypted at
 * rest, never given back, listed by subject, issuer and expiry, deletable, and used by POST /pdf/sign through
 * `certificateId` (synchronous and as a job), by keys the account's owner made only. pdfsig checks the signatures.
 */
const pki = sharedTestPki();
const api = processingAppForSuite({ env: { SIGN_TRUST_ANCHORS: pki.caPem } });
const other = processingAppForSuite();

const b64 = (file: string) => readFileSync(file).toString('base64');

function session(app: typeof api, token = app.accessToken) {
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    app.t.app.inject({
      method,
      url: `/api/v1/signing-certificates${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
  return {
    store: (label: string, file = pki.leafP12, password = pki.p12Password) =>
      call('POST', '/', { label, pkcs12: b64(file), password }),
    list: async () => (await call('GET', '/')).json().data.certificates as TSigningCertificate[],
    remove: (id: string) => call('DELETE', `/${id}`),
  };
}

async function stored(label: string, file = pki.leafP12): Promise<TSigningCertificate> {
  const res = await session(api).store(label, file);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.certificate as TSigningCertificate;
}

function pdfsig(file: string): string {
  try {
    return execFileSync('pdfsig', [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    return (err as { stdout: string }).stdout;
  }
}

describe('stored signing certificates', () => {
  it('201: stored and listed by subject, issuer, serial and validity; the key, the file and the password are never given back', async () => {
    const res = await session(api).store('Jane at work');
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json().data.certificate as TSigningCertificate;
    expect(made).toMatchObject({
      label: 'Jane at work',
      commonName: 'Jane Signer',
      subject: 'CN=Jane Signer, O=DocFlow Tests',
      issuer: 'CN=DocFlow Test Root CA, O=DocFlow Tests',
      lastUsedAt: null,
    });
    expect(Date.parse(made.validTo)).toBeGreaterThan(Date.now());
    const listed = await session(api).list();
    expect(listed.find((c) => c.id === made.id)).toEqual(made);
    for (const body of [
      res.body,
      (
        await api.t.app.inject({
          method: 'GET',
          url: '/api/v1/signing-certificates',
          headers: { authorization: `Bearer ${api.accessToken}` },
        })
      ).body,
    ]) {
      expect(body).not.toContain(b64(pki.leafP12).slice(0, 40));
      expect(body).not.toContain(pki.p12Password);
      expect(body).not.toMatch(/sealed|pkcs12|password/);
    }
  });

  it('kept encrypted at rest, bound to its row: the stored text holds neither the file nor the password, and opens with no other secret or row', async () => {
    const made = await stored('At rest');
    const [row] = await api.t.app.db.select().from(signingCertificates).where(eq(signingCertificates.id, made.id));
    const raw = Buffer.from(row!.sealed, 'base64');
    expect(raw.includes(readFileSync(pki.leafP12).subarray(0, 64))).toBe(false);
    expect(row!.sealed).not.toContain(b64(pki.leafP12).slice(0, 40));
    expect(raw.includes(Buffer.from(pki.p12Password))).toBe(false);
    const binding = `${api.userId}/${made.id}`;
    expect(api.t.app.certificateSealer.open(row!.sealed, binding)).not.toBeNull();
    expect(sealerFor(Buffer.from('another server secret, 32 characters long')).open(row!.sealed, binding)).toBeNull();
    expect(api.t.app.certificateSealer.open(row!.sealed, `${other.userId}/${made.id}`)).toBeNull();
  });

  it('422 for what would not sign: a wrong password, an expired certificate, a file that is no PKCS#12, and no label', async () => {
    const s = session(api);
    expect(errorOf(await s.store('Wrong', pki.leafP12, 'not-it'))).toMatchObject({
      status: 422,
      code: 'CERTIFICATE_PASSWORD_WRONG',
    });
    const expired = await s.store('Old', pki.expiredP12);
    expect(errorOf(expired)).toMatchObject({ status: 422, code: 'CERTIFICATE_EXPIRED' });
    expect(expired.json().error).toMatch(/expired on 2021-01-01/);
    const junk = await session(api).store('Junk', pki.caPem);
    expect(errorOf(junk)).toMatchObject({ status: 422, code: 'INVALID_CERTIFICATE' });
    expect(junk.json().error).toMatch(/^pkcs12: /);
    const noLabel = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/signing-certificates',
      headers: { authorization: `Bearer ${api.accessToken}` },
      payload: { label: '', pkcs12: b64(pki.leafP12) },
    });
    expect(errorOf(noLabel)).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
    expect(noLabel.json().error).toMatch(/label/);
  });

  it('401 without a session; an API key is not a dashboard session', async () => {
    const res = await api.t.app.inject({
      method: 'GET',
      url: '/api/v1/signing-certificates',
      headers: { 'x-api-key': api.apiKey },
    });
    expect(res.statusCode).toBe(401);
  });

  it('200: POST /pdf/sign with certificateId signs as the stored certificate (pdfsig: valid, Jane Signer), and notes its last use', async () => {
    const made = await stored('For signing', pki.otherP12);
    const res = await api.post('/pdf/sign', { certificateId: made.id, reason: 'Stored' }, [
      { content: await numberedPdf(1) },
    ]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const report = pdfsig(saveBody(res.rawPayload));
    expect(report).toContain('Signature is Valid.');
    expect(report).toContain('Omar Countersigner');
    expect((await session(api).list()).find((c) => c.id === made.id)?.lastUsedAt).toEqual(expect.any(String));
  });

  it('as an async job too: the job signs with the stored certificate of the key that queued it', async () => {
    const made = await stored('For jobs');
    const f = form({ async: 'true', certificateId: made.id }, [{ content: await numberedPdf(2) }]);
    const queued = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/pdf/sign',
      payload: f.payload,
      headers: { ...f.headers, 'x-api-key': api.apiKey },
    });
    expect(queued.statusCode, queued.body).toBe(202);
    const id = queued.json().data.jobId as string;
    let job: TJob | undefined;
    for (let i = 0; i < 300; i++) {
      job = (
        await api.t.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}`, headers: { 'x-api-key': api.apiKey } })
      ).json().data;
      if (job && ['succeeded', 'failed', 'cancelled'].includes(job.status)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(job?.status, JSON.stringify(job)).toBe('succeeded');
    const out = await api.t.app.inject({ method: 'GET', url: job!.result!.url, headers: { 'x-api-key': api.apiKey } });
    expect(pdfsig(saveBody(out.rawPayload))).toContain('Jane Signer');
  });

  it('as the last stage of a pipeline: a page deleted, then signed with the stored certificate; a signature stage elsewhere, or without certificateId, is refused before any work', async () => {
    const made = await stored('For pipelines');
    const stages = (list: object[]) => ({ stages: JSON.stringify(list) });
    const res = await api.post(
      '/pipeline',
      stages([
        { op: '/pdf/delete-pages', pages: '2' },
        { op: '/pdf/sign', certificateId: made.id, reason: 'Pipeline' },
      ]),
      [{ content: await numberedPdf(3) }],
    );
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['x-pipeline-stages']).toBe('2');
    const signed = saveBody(res.rawPayload);
    const report = pdfsig(signed);
    expect(report).toContain('Signature is Valid.');
    expect(report).toContain('Total document signed');
    const text = execFileSync('pdftotext', [signed, '-'], { encoding: 'utf8' });
    expect(text).toContain('Page 1');
    expect(text).toContain('Page 3');
    expect(text).not.toContain('Page 2');

    const early = await api.post(
      '/pipeline',
      stages([
        { op: '/pdf/sign', certificateId: made.id },
        { op: '/pdf/rotate', angle: 90 },
      ]),
      [{ content: await numberedPdf(1) }],
    );
    expect(errorOf(early).status).toBe(422);
    expect(early.json().error).toMatch(/^stages\[0\] \(\/pdf\/sign\): op: a signature or time-stamp ends the pipeline/);
    const noId = await api.post('/pipeline', stages([{ op: '/pdf/sign' }]), [{ content: await numberedPdf(1) }]);
    expect(errorOf(noId)).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(noId.json().error).toMatch(
      /^stages\[0\] \(\/pdf\/sign\): certificateId: a pipeline signs with a certificate stored/,
    );
  });

  it("404 for another account's certificate, and for a deleted one; 422 when a file and an id are both sent", async () => {
    const mine = await stored('Mine');
    const theirs = await other.post('/pdf/sign', { certificateId: mine.id }, [{ content: await numberedPdf(1) }]);
    expect(errorOf(theirs)).toMatchObject({ status: 404, code: 'CERTIFICATE_NOT_FOUND' });
    const both = await api.post('/pdf/sign', { certificateId: mine.id, password: pki.p12Password }, [
      { content: await numberedPdf(1) },
      { field: 'certificate', content: pki.leafP12, filename: 'signer.p12' },
    ]);
    expect(errorOf(both)).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    // The other account cannot delete it either; its owner can, and then it signs nothing.
    expect((await session(other).remove(mine.id)).statusCode).toBe(404);
    expect((await session(api).remove(mine.id)).statusCode).toBe(200);
    expect((await session(api).list()).some((c) => c.id === mine.id)).toBe(false);
    const after = await api.post('/pdf/sign', { certificateId: mine.id }, [{ content: await numberedPdf(1) }]);
    expect(errorOf(after)).toMatchObject({ status: 404, code: 'CERTIFICATE_NOT_FOUND' });
    expect((await session(api).remove(mine.id)).statusCode).toBe(404);
  });

  it("403: a key an administrator made for the account does not sign with the account's stored certificates", async () => {
    const mine = await stored('Not for admins');
    const admin = await createTestUser(api.t, { role: 'owner' });
    const { key } = await createApiKey(api.t.app.db, api.userId, {
      name: 'Made for them',
      planName: 'pro',
      environment: 'development',
      createdBy: admin.userId,
    });
    const f = form({ certificateId: mine.id }, [{ content: await numberedPdf(1) }]);
    const res = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/pdf/sign',
      payload: f.payload,
      headers: { ...f.headers, 'x-api-key': key },
    });
    expect(errorOf(res)).toMatchObject({ status: 403, code: 'FORBIDDEN' });
  });

  it(`422 past ${MAX_STORED_CERTIFICATES} stored certificates`, async () => {
    const s = session(other);
    for (let i = (await s.list()).length; i < MAX_STORED_CERTIFICATES; i++) {
      expect((await s.store(`Cert ${i}`)).statusCode).toBe(201);
    }
    expect(errorOf(await s.store('One too many'))).toMatchObject({ status: 422, code: 'CERTIFICATE_LIMIT_REACHED' });
    expect(await s.list()).toHaveLength(MAX_STORED_CERTIFICATES);
  });
});
