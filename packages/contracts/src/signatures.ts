import { z } from 'zod';
import { successEnvelope } from './common';
import { ZFormBoolean } from './pdf';

/**
 * Digital signatures (PAdES): signing with a PKCS#12 certificate sent with the call, and reading back every signature
 * of a PDF. Multipart forms: text fields arrive as strings and are coerced; the files are documented by each route.
 */

const line = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[^\r\n]*$/, 'must not contain line breaks');

export const ZSignPdfFields = z.object({
  password: z
    .string()
    .max(256)
    .default('')
    .describe('Password of the PKCS#12 file sent in `certificate` (empty for a file without one)'),
  certificateId: z
    .string()
    .uuid()
    .optional()
    .describe(
      "A certificate stored for this account (dashboard: Settings, or POST /api/v1/signing-certificates), used instead of a `certificate` file and its password. Only a key the account's owner made may use it.",
    ),
  reason: line(200).optional().describe("Why the document is signed (the signature dictionary's /Reason)"),
  location: line(200).optional().describe('Where it is signed (/Location)'),
  contact: line(200).optional().describe('How to reach the signer (/ContactInfo)'),
  visible: ZFormBoolean.default(false).describe(
    'true: draw the signature on `page` in the rectangle x, y, width, height (name, date, reason); false: an invisible signature',
  ),
  page: z.coerce.number().int().min(1).default(1).describe('Page of a visible signature (1 = the first)'),
  x: z.coerce
    .number()
    .min(0)
    .max(14_400)
    .default(36)
    .describe("Left edge of a visible signature, in pt from the page's left"),
  y: z.coerce
    .number()
    .min(0)
    .max(14_400)
    .default(36)
    .describe("Bottom edge of a visible signature, in pt from the page's bottom"),
  width: z.coerce.number().min(20).max(14_400).default(200).describe('Width of a visible signature, in pt'),
  height: z.coerce.number().min(10).max(14_400).default(60).describe('Height of a visible signature, in pt'),
  timestamp: ZFormBoolean.default(false).describe(
    "true: add an RFC 3161 time-stamp from the server's time-stamp authority (SIGN_TSA_URL) to the signature (PAdES B-T)",
  ),
});
export type TSignPdfFields = z.infer<typeof ZSignPdfFields>;

export const ZVerifySignaturesFields = z.object({});

export const ZTimestampPdfFields = z.object({});

export const ZSignatureStatus = z
  .enum(['valid', 'intact-untrusted', 'invalid'])
  .describe(
    'valid: the signed bytes are intact and the signer chains to a trust anchor of this server; intact-untrusted: intact, but the signer is not trusted (no anchor configured, or none matches); invalid: the signed bytes or the signature do not match',
  );

export const ZSignatureReport = z.object({
  index: z.number().int().describe('1 = the first signature made'),
  field: z.string().nullable().describe('Name of the signature field'),
  kind: z.enum(['signature', 'document-timestamp']),
  subFilter: z.string().nullable(),
  status: ZSignatureStatus,
  message: z.string(),
  signer: z
    .object({
      commonName: z.string().nullable(),
      subject: z.string(),
      issuer: z.string(),
      serialNumber: z.string(),
      validFrom: z.string(),
      validTo: z.string(),
    })
    .nullable(),
  signingTime: z
    .string()
    .nullable()
    .describe("ISO 8601: the time-stamp's time when there is one, else the claimed time"),
  signingTimeSource: z.enum(['timestamp', 'signed-attribute', 'pdf']).nullable(),
  timestamp: z.object({ time: z.string(), authority: z.string().nullable() }).nullable(),
  integrity: z
    .boolean()
    .describe("The digest of the signed byte ranges matches the signature's, and the signature verifies"),
  coversWholeDocument: z.boolean().describe('The signed ranges reach the end of the file: nothing was appended after'),
  modifiedAfterSigning: z.boolean().describe('Bytes were appended after this signature (a later revision)'),
  certificateValidAtSigningTime: z.boolean().nullable(),
  trusted: z.boolean().nullable().describe('null when the server has no trust anchors configured'),
  hasSigningCertificateAttribute: z
    .boolean()
    .describe('The signing-certificate(-v2) attribute PAdES requires is signed'),
});
export type TSignatureReport = z.infer<typeof ZSignatureReport>;

export const ZVerifySignaturesResult = z.object({
  signatures: z.array(ZSignatureReport),
  count: z.number().int(),
  trustAnchorsConfigured: z.boolean(),
});
export const ZVerifySignaturesResponse = successEnvelope(ZVerifySignaturesResult);
export type TVerifySignaturesResult = z.infer<typeof ZVerifySignaturesResult>;

export const signatureEndpointFields = {
  '/pdf/sign': ZSignPdfFields,
  '/pdf/verify-signatures': ZVerifySignaturesFields,
  '/pdf/timestamp': ZTimestampPdfFields,
} as const;

/** Signing certificates stored once per account: the PKCS#12 kept encrypted, never returned; described by these. */
export const MAX_STORED_CERTIFICATES = 20;
/** A PKCS#12 file is a few kilobytes; this is its cap, before base64. */
export const MAX_STORED_CERTIFICATE_BYTES = 64 * 1024;

export const ZSigningCertificate = z.object({
  id: z.string().uuid(),
  label: z.string(),
  subject: z.string().describe("The certificate's subject, as an RFC 4514 string"),
  commonName: z.string().nullable(),
  issuer: z.string(),
  serialNumber: z.string(),
  validFrom: z.string().describe('ISO 8601'),
  validTo: z.string().describe('ISO 8601: after this, signing with it is refused'),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type TSigningCertificate = z.infer<typeof ZSigningCertificate>;

export const ZStoreSigningCertificateRequest = z.object({
  label: line(100).trim().min(1, 'Give the certificate a name').describe('A name to tell it apart'),
  pkcs12: z
    .string()
    .min(1, 'A PKCS#12 file (.p12, .pfx) is required')
    .max(Math.ceil((MAX_STORED_CERTIFICATE_BYTES * 4) / 3) + 4, 'A PKCS#12 file is at most 64 KB')
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'Send the file in standard base64')
    .describe('The PKCS#12 file (.p12, .pfx: private key and certificate), in base64'),
  password: z.string().max(256).default('').describe('Its password (empty for a file without one)'),
});
export type TStoreSigningCertificateRequest = z.input<typeof ZStoreSigningCertificateRequest>;

export const ZSigningCertificateResponse = successEnvelope(z.object({ certificate: ZSigningCertificate }));
export const ZSigningCertificatesResponse = successEnvelope(
  z.object({ certificates: z.array(ZSigningCertificate), max: z.number().int() }),
);
