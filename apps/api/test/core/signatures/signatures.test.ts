import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSignatureConfig } from '../../../src/config/signatures';
import { ConfigError } from '../../../src/config/config-error';
import { assertCurrentlyValid, readPkcs12 } from '../../../src/core/signatures/certificate';
import { buildCadesSignature } from '../../../src/core/signatures/cms';
import { appendSignaturePlaceholder, fillSignature } from '../../../src/core/signatures/incremental';
import { nonceBytes } from '../../../src/core/signatures/tsa';
import { parsePdfDate, readPemBundle, verifySignatures } from '../../../src/core/signatures/verify';
import { sharedTestPki } from '../../fixtures/certificates';
import { numberedPdf } from '../../fixtures/pdfs';

/** The signature core without the HTTP doors: the pieces the routes' tests (routes/pdf/sign.test.ts) rely on. */
const pki = sharedTestPki();

async function signed(pdf: Buffer, p12 = pki.leafP12) {
  const id = readPkcs12(readFileSync(p12), pki.p12Password);
  const p = await appendSignaturePlaceholder(pdf, {
    subFilter: 'ETSI.CAdES.detached',
    reserve: 8192,
    date: new Date(),
  });
  return fillSignature(p, (digest) => buildCadesSignature(digest, id));
}

describe('signature core', () => {
  it("a time-stamp nonce is always a minimal positive DER INTEGER, whatever the random bytes (OpenSSL's TSA refuses a padded one)", () => {
    for (const top of [0x00, 0x01, 0x3f, 0x7f, 0x80, 0xff]) {
      for (const second of [0x00, 0x12, 0x80, 0xff]) {
        const nonce = nonceBytes(Buffer.from([top, second, 3, 4, 5, 6, 7, 8]));
        expect(nonce).toHaveLength(8);
        // Minimal: the first byte is not zero; positive: its high bit is clear.
        expect(nonce[0]).toBeGreaterThanOrEqual(0x40);
        expect(nonce[0]).toBeLessThan(0x80);
        expect(nonce.subarray(1)).toEqual(Buffer.from([second, 3, 4, 5, 6, 7, 8]));
      }
    }
  });

  it('reads PDF dates with their offsets', () => {
    expect(parsePdfDate("D:20240102030405+01'30'")?.toISOString()).toBe('2024-01-02T01:34:05.000Z');
    expect(parsePdfDate('D:20240102030405Z')?.toISOString()).toBe('2024-01-02T03:04:05.000Z');
    expect(parsePdfDate('D:2024')?.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    expect(parsePdfDate('yesterday')).toBeNull();
  });

  it('a certificate outside its validity period is refused, naming its dates', () => {
    const { certificate } = readPkcs12(readFileSync(pki.expiredP12), pki.p12Password);
    expect(() => assertCurrentlyValid(certificate)).toThrow(/expired on 2021-01-01/);
    expect(() => assertCurrentlyValid(certificate, new Date('2020-06-01'))).not.toThrow();
    expect(() => assertCurrentlyValid(certificate, new Date('2019-06-01'))).toThrow(/valid only from 2020-01-01/);
  });

  it('the chain of the PKCS#12 travels in the signature: a trust anchor that issued it makes the signer trusted', async () => {
    const pdf = await signed(readFileSync(await numberedPdf(1)));
    const anchors = readPemBundle(readFileSync(pki.caPem, 'utf8'));
    const [trusted] = await verifySignatures(pdf, anchors);
    expect(trusted).toMatchObject({ status: 'valid', trusted: true });
    // An anchor that issued nothing here: intact, not trusted.
    const tsaOnly = readPemBundle(readFileSync(path.join(pki.dir, 'tsa.pem'), 'utf8'));
    const [other] = await verifySignatures(pdf, tsaOnly);
    expect(other).toMatchObject({ status: 'intact-untrusted', trusted: false, integrity: true });
    expect(other!.message).toMatch(/does not chain to a trust anchor/);
  });

  it('a /ByteRange that does not fit the file is reported invalid, not trusted blindly', async () => {
    const pdf = await signed(readFileSync(await numberedPdf(1)));
    const text = pdf.toString('latin1');
    const at = text.indexOf('/ByteRange [') + '/ByteRange ['.length;
    const end = text.indexOf(']', at);
    const forged = Buffer.from(pdf);
    forged.write('0 10 20 30'.padEnd(end - at, ' '), at, 'latin1');
    const [s] = await verifySignatures(forged, []);
    expect(s).toMatchObject({ status: 'invalid', integrity: false });
  });

  it('SIGN_TRUST_ANCHORS: a file without certificates, or missing, stops the start naming the variable', () => {
    const empty = path.join(pki.dir, 'empty.pem');
    writeFileSync(empty, 'not a certificate\n');
    const base = { URL_TO_PDF_ALLOW_PRIVATE: false };
    expect(() => loadSignatureConfig({ ...base, SIGN_TRUST_ANCHORS: empty })).toThrow(ConfigError);
    expect(() => loadSignatureConfig({ ...base, SIGN_TRUST_ANCHORS: path.join(pki.dir, 'nope.pem') })).toThrow(
      /SIGN_TRUST_ANCHORS: cannot read/,
    );
    expect(loadSignatureConfig({ ...base, SIGN_TRUST_ANCHORS: pki.caPem }).trustAnchors).toHaveLength(1);
    expect(loadSignatureConfig({ URL_TO_PDF_ALLOW_PRIVATE: true }).tsaAllowPrivate).toBe(true);
    expect(loadSignatureConfig({ URL_TO_PDF_ALLOW_PRIVATE: true, SIGN_TSA_ALLOW_PRIVATE: false }).tsaAllowPrivate).toBe(
      false,
    );
  });
});
