import { createHash, sign as signBytes, type X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { EngineError } from '../errors';
import type { SigningIdentity } from './certificate';

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificate: '1.2.840.113549.1.9.16.2.12',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
} as const;

/** Digest algorithm OIDs as node:crypto names them. */
export const hashNames: Record<string, string> = {
  [OID.sha1]: 'sha1',
  [OID.sha256]: 'sha256',
  [OID.sha384]: 'sha384',
  [OID.sha512]: 'sha512',
};

const toArrayBuffer = (b: Buffer): ArrayBuffer =>
  b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

export const pkijsCertificate = (c: X509Certificate) => pkijs.Certificate.fromBER(toArrayBuffer(c.raw));

const attribute = (type: string, value: asn1js.AsnType) => new pkijs.Attribute({ type, values: [value] });

/**
 * ESS signing-certificate-v2 (RFC 5035): the SHA-256 of the signer's certificate and its issuer and serial, signed,
 * so the certificate cannot be swapped for another with the same key (PAdES baseline B requires it).
 */
function signingCertificateV2(cert: pkijs.Certificate, der: Buffer): asn1js.Sequence {
  const issuer = asn1js.fromBER(cert.issuer.valueBeforeDecode).result;
  const issuerSerial = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [issuer] })],
      }),
      cert.serialNumber,
    ],
  });
  // hashAlgorithm is left out: SHA-256 is its DEFAULT, and DER omits a default.
  const certId = new asn1js.Sequence({
    value: [
      new asn1js.OctetString({ valueHex: toArrayBuffer(createHash('sha256').update(der).digest()) }),
      issuerSerial,
    ],
  });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [certId] })] });
}

function signatureAlgorithmOf(identity: SigningIdentity): pkijs.AlgorithmIdentifier {
  const type = identity.key.asymmetricKeyType;
  if (type === 'rsa') {
    return new pkijs.AlgorithmIdentifier({ algorithmId: OID.rsaEncryption, algorithmParams: new asn1js.Null() });
  }
  if (type === 'ec') return new pkijs.AlgorithmIdentifier({ algorithmId: OID.ecdsaWithSha256 });
  throw new EngineError(
    'INVALID_CERTIFICATE',
    `certificate: ${type ?? 'this'} keys are not supported; use RSA or ECDSA`,
    {
      details: { field: 'certificate' },
    },
  );
}

/** Fetches an RFC 3161 time-stamp token (a DER ContentInfo) over the given digest of the signature value. */
export type TimeStamper = (sha256OfSignature: Buffer) => Promise<Buffer>;

/**
 * A CAdES-detached CMS SignedData over `digest` (SHA-256 of the PDF's signed byte ranges): signed attributes
 * contentType, messageDigest and signing-certificate-v2, and no signingTime (PAdES puts the claimed time in the
 * signature dictionary's /M). With `timeStamp`, the signature value is time-stamped (unsigned attribute, PAdES B-T).
 */
export async function buildCadesSignature(
  digest: Buffer,
  identity: SigningIdentity,
  timeStamp?: TimeStamper,
): Promise<Buffer> {
  const cert = pkijsCertificate(identity.certificate);
  const attrs = [
    attribute(OID.contentType, new asn1js.ObjectIdentifier({ value: OID.data })),
    attribute(OID.messageDigest, new asn1js.OctetString({ valueHex: toArrayBuffer(digest) })),
    attribute(OID.signingCertificateV2, signingCertificateV2(cert, identity.certificate.raw)),
  ];
  // DER sorts a SET OF by its encodings; the bytes signed are the bytes embedded.
  const sorted = attrs
    .map((a) => ({ a, der: Buffer.from(a.toSchema().toBER()) }))
    .sort((x, y) => Buffer.compare(x.der, y.der))
    .map((x) => x.a);
  const signedSet = Buffer.from(new asn1js.Set({ value: sorted.map((a) => a.toSchema()) }).toBER());
  const signatureAlgorithm = signatureAlgorithmOf(identity);
  const signature = signBytes('sha256', signedSet, identity.key);
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
    digestAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes: sorted }),
    signatureAlgorithm,
    signature: new asn1js.OctetString({ valueHex: toArrayBuffer(signature) }),
  });
  if (timeStamp) {
    const token = await timeStamp(createHash('sha256').update(signature).digest());
    const tokenAsn1 = asn1js.fromBER(toArrayBuffer(token));
    if (tokenAsn1.offset === -1) throw new EngineError('TSA_UNAVAILABLE', 'The time-stamp authority answered no token');
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [attribute(OID.signatureTimeStampToken, tokenAsn1.result)],
    });
  }
  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 })],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    certificates: [cert, ...identity.chain.map(pkijsCertificate)],
    signerInfos: [signerInfo],
  });
  const info = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return Buffer.from(info.toSchema().toBER());
}
