import { readFile } from 'node:fs/promises';
import { ZFileResultResponse, ZVerifySignaturesResponse, type TSignPdfFields } from '@docflow/contracts';
import { EngineError } from '../../core/errors';
import { signPdf } from '../../core/operations/pdf/sign';
import { timestampPdf } from '../../core/operations/pdf/timestamp';
import { verifyPdfSignatures } from '../../core/operations/pdf/verify-signatures';
import { timeStamperFor } from '../../core/signatures/tsa';
import { dataOutcome, fileOutcome } from '../../lib/outcome';
import { preparePdf, type OutputFile, type PdfJob, type PreparedPdf } from '../../core/operations/pdf/job';
import { outputName } from '../../lib/send-result';
import type { UploadedFile } from '../../lib/uploads';
import type { AllowList } from '../../core/net/allow-list';
import { AppError } from '../../lib/app-error';
import { defineEndpoint, type CallCaller, type EndpointContext, type ProcessingEndpoint } from '../processing-endpoint';

export interface SignatureSettings {
  /** RFC 3161 time-stamp authority (SIGN_TSA_URL); null: time-stamps are refused. */
  tsaUrl: string | null;
  /** Its address is checked as every URL the server fetches; a private one only when the operator allows it. */
  tsaAllowPrivate: boolean;
  /** The operator's intranet hosts and ranges (OUTBOUND_ALLOW_LIST): an authority there is reached too. */
  allowList?: AllowList;
  /** PEM certificates a signer must chain to, to be reported trusted. */
  trustAnchors: readonly string[];
}

/** The signing certificates accounts store (services/signing-certificates): opened for their owner's signature. */
export type StoredCertificates = (userId: string, id: string) => Promise<{ pkcs12: Buffer; password: string }>;

/**
 * The PKCS#12 a signature is made with: the file sent with the call, or one the account stores (`certificateId`),
 * which only a key the account's owner made may use: a key an administrator made for them signs nothing in their
 * name.
 */
async function signingCertificateOf(
  ctx: Pick<EndpointContext<{ certificateId?: string; password: string }>, 'fields' | 'extras' | 'caller'>,
  stored: StoredCertificates | undefined,
): Promise<{ pkcs12: Buffer; password: string }> {
  const { fields, extras, caller } = ctx;
  if (fields.certificateId) {
    if (extras.certificate) {
      throw new AppError(
        'INVALID_INPUT',
        'certificateId: send either a certificate file or a certificateId, not both',
        {
          details: { field: 'certificateId' },
        },
      );
    }
    if (!caller || !stored) {
      throw new AppError('CERTIFICATE_NOT_FOUND', 'certificateId: this door has no stored certificates', {
        details: { field: 'certificateId' },
      });
    }
    if (!caller.ownKey) {
      throw new AppError(
        'FORBIDDEN',
        "certificateId: a key an administrator made for this account cannot sign with the account's stored certificates",
        { details: { field: 'certificateId' } },
      );
    }
    return stored(caller.userId, fields.certificateId);
  }
  const certificate = extras.certificate;
  if (!certificate) {
    throw new AppError(
      'INVALID_INPUT',
      'certificate: a PKCS#12 file (.p12, .pfx) is required (multipart field "certificate"), or the certificateId of a stored one',
      {
        details: { field: 'certificate' },
      },
    );
  }
  return { pkcs12: await readFile(certificate.path), password: fields.password };
}

/**
 * A signed PDF is opened as it is: never decrypted or rewritten (that would break the signatures it holds). An
 * encrypted one is refused naming what to do, since `password` here is the certificate's.
 */
type Prepare = (file: UploadedFile, opts: { keepEncryption: boolean }) => Promise<PreparedPdf>;

async function openAsIs(prepare: Prepare, file: UploadedFile, action: string) {
  try {
    const input = await prepare(file, { keepEncryption: true });
    if (input.wasEncrypted && action === 'sign') {
      throw new EngineError(
        'INVALID_PDF',
        'file: this PDF is encrypted; remove its password (/pdf/unlock) before signing',
        {
          details: { field: 'file' },
        },
      );
    }
    // The bytes as sent: a page tree the checks rebuilt would be another file, whose signatures no longer match.
    return { ...input, path: file.path };
  } catch (err) {
    if (err instanceof EngineError && (err.code === 'PASSWORD_REQUIRED' || err.code === 'WRONG_PASSWORD')) {
      throw new EngineError(
        'INVALID_PDF',
        `file: this PDF is encrypted with a password; it cannot be ${action === 'sign' ? 'signed' : 'verified'} here`,
        {
          details: { field: 'file' },
          cause: err,
        },
      );
    }
    throw err;
  }
}

const pdfAnswer = (from: UploadedFile, out: OutputFile) =>
  fileOutcome({
    path: out.path,
    fileName: outputName(from.filename, out.name, 'pdf'),
    mimeType: 'application/pdf',
    pages: out.pages,
  });

/** The image of a visible signature: PNG or JPEG, told by its first bytes. */
async function signatureImage(file: UploadedFile, visible: boolean) {
  if (!visible) {
    throw new AppError('INVALID_INPUT', 'image: an image is drawn only on a visible signature (visible=true)', {
      details: { field: 'image' },
    });
  }
  const bytes = await readFile(file.path);
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { bytes, kind: 'png' as const };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return { bytes, kind: 'jpg' as const };
  throw new AppError('INVALID_INPUT', 'image: send a PNG or JPEG image', { details: { field: 'image' } });
}

const noAuthority = (field: string) =>
  new AppError('INVALID_INPUT', `${field}: this server has no time-stamp authority configured (SIGN_TSA_URL)`, {
    details: { field },
  });

/** The operator's time-stamp authority, under the rules of every URL the server fetches. */
function stamperOf(settings: SignatureSettings, job: PdfJob) {
  return timeStamperFor(
    settings.tsaUrl!,
    { allowPrivate: settings.tsaAllowPrivate, allowList: settings.allowList },
    { signal: job.signal },
  );
}

/** The signature itself, once its certificate and input are known: the endpoint's and the pipeline stage's. */
function signWith(
  settings: SignatureSettings,
  job: PdfJob,
  input: PreparedPdf,
  fields: TSignPdfFields,
  signer: { pkcs12: Buffer; password: string },
  image?: Awaited<ReturnType<typeof signatureImage>>,
): Promise<OutputFile> {
  if (fields.timestamp && !settings.tsaUrl) throw noAuthority('timestamp');
  return signPdf(job, input, {
    certificate: signer.pkcs12,
    password: signer.password,
    reason: fields.reason,
    location: fields.location,
    contact: fields.contact,
    visible: fields.visible
      ? { page: fields.page, x: fields.x, y: fields.y, width: fields.width, height: fields.height, image }
      : undefined,
    timeStamper: fields.timestamp && settings.tsaUrl ? stamperOf(settings, job) : undefined,
  });
}

/** A pipeline stage that must end it: it takes the previous stage's PDF and the call's caller. */
export interface LastStage {
  run(
    call: { job: PdfJob; caller: CallCaller | null; label: string },
    input: UploadedFile,
    fields: Record<string, unknown>,
  ): Promise<OutputFile & { pages?: number }>;
}

/**
 * /pdf/sign as the last stage of a pipeline: with a certificate stored for the account (`certificateId`), since a
 * pipeline carries one file; the PDF it signs is the previous stage's, opened as it is.
 */
export const signStage = (settings: SignatureSettings, stored?: StoredCertificates): LastStage => ({
  async run({ job, caller, label }, file, raw) {
    const fields = raw as TSignPdfFields;
    if (!fields.certificateId) {
      throw new AppError(
        'INVALID_INPUT',
        'certificateId: a pipeline signs with a certificate stored for the account (Settings → Signing certificates)',
        { details: { field: 'certificateId' } },
      );
    }
    const signer = await signingCertificateOf({ fields, extras: {}, caller }, stored);
    const input = await openAsIs((f, o) => preparePdf(job, f, { ...o, label }), file, 'sign');
    return signWith(settings, job, input, fields, signer);
  },
});

/** /pdf/timestamp as a last stage: a document time-stamp over the previous stage's PDF (a signature's included). */
export const timestampStage = (settings: SignatureSettings): LastStage => ({
  async run({ job, label }, file) {
    if (!settings.tsaUrl) throw noAuthority('op');
    const input = await openAsIs((f, o) => preparePdf(job, f, { ...o, label }), file, 'sign');
    return timestampPdf(job, input, stamperOf(settings, job));
  },
});

/** POST /pdf/sign, /pdf/timestamp and /pdf/verify-signatures, over the server's signature settings. */
export const signatureEndpoints = (
  settings: SignatureSettings,
  stored?: StoredCertificates,
): readonly ProcessingEndpoint[] => [
  defineEndpoint('/pdf/sign', {
    description:
      'PAdES baseline B (B-T with `timestamp=true`): a CMS SignedData, CAdES detached (SubFilter ETSI.CAdES.detached), with the signing-certificate-v2 attribute and no signingTime (the time is in /M). ' +
      'The signature is an incremental update: the bytes sent are kept as they are, so the signatures they already hold stay valid. ' +
      'Send the PDF in `file`, the PKCS#12 (.p12/.pfx: key and certificate, its chain optional) in `certificate`, its password in `password`; ' +
      'or, instead of both, the `certificateId` of a certificate stored for the account (GET /api/v1/signing-certificates lists them; a key an administrator made for the account may not use them). ' +
      'An expired certificate, a wrong password or a file that is no PKCS#12 is a 422 naming it.',
    files: {
      description: 'The PDF document',
      extra: {
        certificate: 'PKCS#12 file (.p12, .pfx) with the private key and its certificate',
        image: 'PNG or JPEG drawn at the left of a visible signature (a hand-written signature, a seal)',
      },
    },
    response: ZFileResultResponse.describe('The signed PDF itself; with Accept: application/json, this JSON'),
    async run(ctx) {
      const { fields, files, extras, job } = ctx;
      if (fields.timestamp && !settings.tsaUrl) throw noAuthority('timestamp');
      const image = extras.image ? await signatureImage(extras.image, fields.visible) : undefined;
      const signer = await signingCertificateOf(ctx, stored);
      const input = await openAsIs(ctx.prepare, files[0]!, 'sign');
      return pdfAnswer(files[0]!, await signWith(settings, job, input, fields, signer, image));
    },
  }),

  defineEndpoint('/pdf/timestamp', {
    description:
      "A document time-stamp (SubFilter ETSI.RFC3161): the server's time-stamp authority (SIGN_TSA_URL) signs the SHA-256 of the whole file, added as an incremental update, " +
      'so the signatures already in the file stay valid and are proved to have existed at that time. A server without an authority answers 422.',
    files: { description: 'The PDF document' },
    response: ZFileResultResponse.describe('The time-stamped PDF itself; with Accept: application/json, this JSON'),
    async run(ctx) {
      if (!settings.tsaUrl) throw noAuthority('file');
      const input = await openAsIs(ctx.prepare, ctx.files[0]!, 'sign');
      return pdfAnswer(ctx.files[0]!, await timestampPdf(ctx.job, input, stamperOf(settings, ctx.job)));
    },
  }),

  defineEndpoint('/pdf/verify-signatures', {
    description:
      "For each signature and document time-stamp: the signer (subject, issuer, validity), the signing time (a time-stamp's when there is one), " +
      'whether the signed bytes are intact (digest and signature value), whether the signature covers the whole file or later revisions were appended, ' +
      "whether the certificate was valid at the signing time, and whether it chains to the server's trust anchors (SIGN_TRUST_ANCHORS). " +
      'Without anchors a good signature is "intact-untrusted": the server does not guess who is trustworthy.',
    files: { description: 'The PDF document' },
    response: ZVerifySignaturesResponse,
    async run(ctx) {
      const input = await openAsIs(ctx.prepare, ctx.files[0]!, 'verify');
      return dataOutcome(await verifyPdfSignatures(input, settings.trustAnchors));
    },
  }),
];
