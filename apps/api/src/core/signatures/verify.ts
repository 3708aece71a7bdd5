import { createHash, verify as verifyBytes, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFRef, PDFString } from 'pdf-lib';
import { EngineError } from '../errors';
import { commonNameOf } from './certificate';
import { hashNames, OID } from './cms';

export interface SignatureReport {
  index: number;
  field: string | null;
  kind: 'signature' | 'document-timestamp';
  subFilter: string | null;
  status: 'valid' | 'intact-untrusted' | 'invalid';
  message: string;
  signer: {
    commonName: string | null;
    subject: string;
    issuer: string;
    serialNumber: string;
    validFrom: string;
    validTo: string;
  } | null;
  signingTime: string | null;
  signingTimeSource: 'timestamp' | 'signed-attribute' | 'pdf' | null;
  timestamp: { time: string; authority: string | null } | null;
  integrity: boolean;
  coversWholeDocument: boolean;
  modifiedAfterSigning: boolean;
  certificateValidAtSigningTime: boolean | null;
  trusted: boolean | null;
  hasSigningCertificateAttribute: boolean;
}

interface FoundSignature {
  dict: PDFDict;
  ref: PDFRef;
  field: string | null;
  byteRange: number[];
}

const toArrayBuffer = (b: Buffer): ArrayBuffer =>
  b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
const textOf = (o: unknown) => (o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : null);
const nameOf = (o: unknown) => (o instanceof PDFName ? o.decodeText() : null);

/** Every signature dictionary of the document (the fields' /V), with the name of the field that holds it. */
function findSignatures(doc: PDFDocument): FoundSignature[] {
  const fieldOf = new Map<string, string | null>();
  const found: FoundSignature[] = [];
  for (const [ref, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict)) continue;
    const v = obj.get(PDFName.of('V'));
    if (v instanceof PDFRef && nameOf(obj.get(PDFName.of('FT'))) === 'Sig') {
      fieldOf.set(v.toString(), textOf(obj.get(PDFName.of('T'))));
    }
    const br = obj.get(PDFName.of('ByteRange'));
    if (br instanceof PDFArray && obj.has(PDFName.of('Contents'))) {
      const byteRange = br.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : NaN));
      found.push({ dict: obj, ref, field: null, byteRange });
    }
  }
  for (const f of found) f.field = fieldOf.get(f.ref.toString()) ?? null;
  // Made in the order their ranges grow: each later signature covers the earlier ones.
  return found.sort(
    (a, b) => (a.byteRange[2] ?? 0) + (a.byteRange[3] ?? 0) - ((b.byteRange[2] ?? 0) + (b.byteRange[3] ?? 0)),
  );
}

/** "D:20240102030405+01'00'" as a Date. */
export function parsePdfDate(s: string | null): Date | null {
  const m = s && /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?/.exec(s);
  if (!m) return null;
  const [y, mo = '01', d = '01', h = '00', mi = '00', se = '00'] = m.slice(1, 7) as string[];
  let t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(se));
  if (m[7] === '+' || m[7] === '-') {
    const off = (Number(m[8] ?? 0) * 60 + Number(m[9] ?? 0)) * 60_000;
    t += m[7] === '+' ? -off : off;
  }
  return new Date(t);
}

const attr = (si: pkijs.SignerInfo, which: 'signedAttrs' | 'unsignedAttrs', type: string) =>
  si[which]?.attributes.find((a) => a.type === type);

/** genTime and TSA name of an RFC 3161 token (a SignedData of a TSTInfo). */
function readTimeStampToken(
  token: asn1js.AsnType,
): { time: Date; authority: string | null; signed: pkijs.SignedData } | null {
  try {
    const info = new pkijs.ContentInfo({ schema: token });
    const signed = new pkijs.SignedData({ schema: info.content });
    const econtent = signed.encapContentInfo.eContent;
    if (!econtent) return null;
    const tst = pkijs.TSTInfo.fromBER(econtent.getValue());
    const signerCert = signed.certificates?.find((c) => c instanceof pkijs.Certificate) as
      pkijs.Certificate | undefined;
    const authority = signerCert
      ? commonNameOf(new X509Certificate(Buffer.from(signerCert.toSchema().toBER())).subject)
      : null;
    return { time: tst.genTime, authority, signed };
  } catch {
    return null;
  }
}

/** Signed by `issuer`: names match and the signature checks with its key. */
const issuedBy = (cert: X509Certificate, issuer: X509Certificate) => {
  try {
    return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
  } catch {
    return false;
  }
};

/** Whether `leaf` chains, through `pool`, to one of `anchors` (each link's signature checked). */
function chainsTo(leaf: X509Certificate, pool: X509Certificate[], anchors: X509Certificate[]): boolean {
  let cur = leaf;
  const seen = new Set<string>();
  for (let depth = 0; depth < 10; depth++) {
    if (anchors.some((a) => a.fingerprint256 === cur.fingerprint256)) return true;
    const anchor = anchors.find((a) => issuedBy(cur, a));
    if (anchor) return true;
    seen.add(cur.fingerprint256);
    const next = pool.find((c) => !seen.has(c.fingerprint256) && issuedBy(cur, c));
    if (!next) return false;
    cur = next;
  }
  return false;
}

function verifySignatureValue(si: pkijs.SignerInfo, cert: X509Certificate, digestName: string): boolean {
  const signed = Buffer.from(si.signedAttrs!.encodedValue);
  const sig = Buffer.from(si.signature.valueBlock.valueHexView);
  const alg = si.signatureAlgorithm.algorithmId;
  try {
    if (alg === '1.2.840.113549.1.1.10') {
      return verifyBytes(digestName, signed, { key: cert.publicKey, padding: 6 /* RSA_PKCS1_PSS_PADDING */ }, sig);
    }
    return verifyBytes(digestName, signed, cert.publicKey, sig);
  } catch {
    return false;
  }
}

interface Checked {
  integrity: boolean;
  cert: X509Certificate | null;
  certs: X509Certificate[];
  claimedTime: Date | null;
  stamp: { time: Date; authority: string | null } | null;
  essAttribute: boolean;
  problem: string | null;
}

/** Digest, signature value and attributes of one CMS over the signed ranges of `file`. */
function checkCms(cms: Buffer, ranges: Buffer[], docTimestamp: boolean): Checked {
  const empty: Checked = {
    integrity: false,
    cert: null,
    certs: [],
    claimedTime: null,
    stamp: null,
    essAttribute: false,
    problem: null,
  };
  const parsed = asn1js.fromBER(toArrayBuffer(cms));
  if (parsed.offset === -1) return { ...empty, problem: 'the signature is not a CMS structure' };
  let sd: pkijs.SignedData;
  try {
    sd = new pkijs.SignedData({ schema: new pkijs.ContentInfo({ schema: parsed.result }).content });
  } catch {
    return { ...empty, problem: 'the signature is not a CMS SignedData' };
  }
  const certs = (sd.certificates ?? [])
    .filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate)
    .map((c) => new X509Certificate(Buffer.from(c.toSchema().toBER())));
  const si = sd.signerInfos[0];
  if (!si) return { ...empty, certs, problem: 'the signature has no signer' };
  const sid = si.sid as pkijs.IssuerAndSerialNumber;
  const serial = Buffer.from(sid.serialNumber?.valueBlock.valueHexView ?? [])
    .toString('hex')
    .replace(/^0+/, '')
    .toUpperCase();
  const cert = certs.find((c) => c.serialNumber.replace(/^0+/, '').toUpperCase() === serial) ?? certs[0] ?? null;
  const digestName = hashNames[si.digestAlgorithm.algorithmId];
  if (!cert) return { ...empty, certs, problem: "the signer's certificate is not in the signature" };
  if (!digestName)
    return { ...empty, cert, certs, problem: `unsupported digest algorithm ${si.digestAlgorithm.algorithmId}` };
  const h = createHash(digestName);
  for (const r of ranges) h.update(r);
  let digest = h.digest();
  let claimedTime: Date | null = null;
  let stamp: Checked['stamp'] = null;
  if (docTimestamp) {
    // A document time-stamp's token is the CMS itself: the digest is in its TSTInfo's message imprint.
    const token = readTimeStampToken(parsed.result);
    if (token) {
      stamp = { time: token.time, authority: token.authority };
      const tst = pkijs.TSTInfo.fromBER(token.signed.encapContentInfo.eContent!.getValue());
      const imprint = Buffer.from(tst.messageImprint.hashedMessage.valueBlock.valueHexView);
      const name = hashNames[tst.messageImprint.hashAlgorithm.algorithmId] ?? digestName;
      const h2 = createHash(name);
      for (const r of ranges) h2.update(r);
      if (!h2.digest().equals(imprint))
        return { ...empty, cert, certs, stamp, problem: 'the document was changed in the time-stamped ranges' };
      digest = createHash(digestName).update(Buffer.from(token.signed.encapContentInfo.eContent!.getValue())).digest();
    }
  }
  const md = attr(si, 'signedAttrs', OID.messageDigest);
  if (!md) return { ...empty, cert, certs, problem: 'the signature carries no message digest attribute' };
  const mdValue = Buffer.from((md.values[0] as asn1js.OctetString).valueBlock.valueHexView);
  if (!mdValue.equals(digest)) {
    return {
      ...empty,
      cert,
      certs,
      stamp,
      problem: "the document was changed in the signed ranges: its digest does not match the signature's",
    };
  }
  if (!verifySignatureValue(si, cert, digestName)) {
    return { ...empty, cert, certs, stamp, problem: "the signature value does not verify with the signer's key" };
  }
  const st = attr(si, 'signedAttrs', OID.signingTime);
  if (st) claimedTime = (st.values[0] as asn1js.UTCTime).toDate();
  const tokenAttr = attr(si, 'unsignedAttrs', OID.signatureTimeStampToken);
  if (tokenAttr) {
    const token = readTimeStampToken(tokenAttr.values[0] as asn1js.AsnType);
    if (token) {
      const tst = pkijs.TSTInfo.fromBER(token.signed.encapContentInfo.eContent!.getValue());
      const expected = createHash(hashNames[tst.messageImprint.hashAlgorithm.algorithmId] ?? 'sha256')
        .update(Buffer.from(si.signature.valueBlock.valueHexView))
        .digest();
      if (expected.equals(Buffer.from(tst.messageImprint.hashedMessage.valueBlock.valueHexView))) {
        stamp = { time: token.time, authority: token.authority };
      }
    }
  }
  const essAttribute = !!(
    attr(si, 'signedAttrs', OID.signingCertificateV2) ?? attr(si, 'signedAttrs', OID.signingCertificate)
  );
  return { integrity: true, cert, certs, claimedTime, stamp, essAttribute, problem: null };
}

/**
 * Every signature and document time-stamp of `pdf`, checked in this process: the signed byte ranges' digest
 * against the signature's, the signature value with the signer's key, the signer's certificate at the signing time
 * (a time-stamp's when there is one), whether later revisions were appended, and the chain to `anchors` (without
 * anchors, `trusted` is null: "intact, signer not trusted").
 */
export async function verifySignatures(pdf: Buffer, anchors: X509Certificate[]): Promise<SignatureReport[]> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  } catch (err) {
    throw new EngineError('INVALID_PDF', 'file: the PDF could not be read', { details: { field: 'file' }, cause: err });
  }
  return findSignatures(doc).map((s, i): SignatureReport => {
    const subFilter = nameOf(s.dict.get(PDFName.of('SubFilter')));
    const kind =
      subFilter === 'ETSI.RFC3161' || nameOf(s.dict.get(PDFName.of('Type'))) === 'DocTimeStamp'
        ? 'document-timestamp'
        : 'signature';
    const [a = 0, b = 0, c = 0, d = 0] = s.byteRange;
    const sane =
      s.byteRange.length === 4 &&
      s.byteRange.every(Number.isSafeInteger) &&
      a === 0 &&
      b > 0 &&
      c > b &&
      c + d <= pdf.length;
    const base = {
      index: i + 1,
      field: s.field,
      kind,
      subFilter,
      signer: null,
      signingTime: null,
      signingTimeSource: null,
      timestamp: null,
      certificateValidAtSigningTime: null,
      trusted: null,
      hasSigningCertificateAttribute: false,
    } as const;
    if (!sane) {
      return {
        ...base,
        status: 'invalid',
        message: "the signature's byte ranges do not fit this file",
        integrity: false,
        coversWholeDocument: false,
        modifiedAfterSigning: true,
      };
    }
    const coversWholeDocument = c + d === pdf.length;
    const hole = pdf.subarray(b, c).toString('latin1');
    const hex = /^<([0-9a-fA-F\s]*)>$/.exec(hole.trim());
    const checked = hex
      ? checkCms(
          Buffer.from(hex[1]!.replace(/\s/g, ''), 'hex'),
          [pdf.subarray(a, a + b), pdf.subarray(c, c + d)],
          kind === 'document-timestamp',
        )
      : null;
    if (!checked) {
      return {
        ...base,
        status: 'invalid',
        message: 'the signed ranges leave out more than the signature',
        integrity: false,
        coversWholeDocument,
        modifiedAfterSigning: !coversWholeDocument,
      };
    }
    const cert = checked.cert;
    const claimed = checked.claimedTime ?? parsePdfDate(textOf(s.dict.get(PDFName.of('M'))));
    const time = checked.stamp?.time ?? claimed;
    const source = checked.stamp ? 'timestamp' : checked.claimedTime ? 'signed-attribute' : claimed ? 'pdf' : null;
    const validAt = cert && time ? time >= new Date(cert.validFrom) && time <= new Date(cert.validTo) : null;
    const trusted = anchors.length && cert ? chainsTo(cert, checked.certs, anchors) : null;
    const status = !checked.integrity ? 'invalid' : trusted && validAt !== false ? 'valid' : 'intact-untrusted';
    const message = !checked.integrity
      ? checked.problem!
      : status === 'valid'
        ? 'signature intact, signer trusted'
        : validAt === false
          ? "signature intact, but the signer's certificate was not valid at the signing time"
          : anchors.length
            ? 'signature intact, signer not trusted: the certificate does not chain to a trust anchor of this server'
            : 'signature intact, signer not trusted: this server has no trust anchors configured';
    return {
      ...base,
      status,
      message,
      signer: cert
        ? {
            commonName: commonNameOf(cert.subject),
            subject: cert.subject.split('\n').join(', '),
            issuer: cert.issuer.split('\n').join(', '),
            serialNumber: cert.serialNumber,
            validFrom: new Date(cert.validFrom).toISOString(),
            validTo: new Date(cert.validTo).toISOString(),
          }
        : null,
      signingTime: time?.toISOString() ?? null,
      signingTimeSource: source,
      timestamp: checked.stamp ? { time: checked.stamp.time.toISOString(), authority: checked.stamp.authority } : null,
      integrity: checked.integrity,
      coversWholeDocument,
      modifiedAfterSigning: !coversWholeDocument,
      certificateValidAtSigningTime: validAt,
      trusted,
      hasSigningCertificateAttribute: checked.essAttribute,
    };
  });
}

/** The certificates of a PEM bundle (the trust anchors file). */
export function readPemBundle(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((b) => new X509Certificate(b));
}
