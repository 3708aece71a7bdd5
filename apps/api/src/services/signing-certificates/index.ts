import { randomUUID } from 'node:crypto';
import { and, count, desc, eq } from 'drizzle-orm';
import {
  MAX_STORED_CERTIFICATE_BYTES,
  MAX_STORED_CERTIFICATES,
  type TSigningCertificate,
  type TStoreSigningCertificateRequest,
  ZStoreSigningCertificateRequest,
} from '@docflow/contracts';
import { assertCurrentlyValid, commonNameOf, readPkcs12 } from '../../core/signatures/certificate';
import { EngineError } from '../../core/errors';
import type { Db } from '../../data/db';
import { signingCertificates } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import type { Sealer } from './seal';

export { sealerFor, type Sealer } from './seal';

type Row = typeof signingCertificates.$inferSelect;

const view = (r: Row): TSigningCertificate => ({
  id: r.id,
  label: r.label,
  subject: r.subject,
  commonName: r.commonName,
  issuer: r.issuer,
  serialNumber: r.serialNumber,
  validFrom: r.validFrom.toISOString(),
  validTo: r.validTo.toISOString(),
  createdAt: r.createdAt.toISOString(),
  lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
});

/** What a stored box holds: the file as uploaded and its password, which is all signing needs. */
interface Sealed {
  pkcs12: string;
  password: string;
}

/** The row's binding: a box opens only on the row and for the account it was made for. */
const binding = (userId: string, id: string) => `${userId}/${id}`;

const notFound = () =>
  new AppError('CERTIFICATE_NOT_FOUND', 'certificateId: no signing certificate of this id is stored for your account', {
    details: { field: 'certificateId' },
  });

/** The certificate checks of core speak of the multipart `certificate` field; here the file came as `pkcs12`. */
const certificateCodes = ['CERTIFICATE_PASSWORD_WRONG', 'INVALID_CERTIFICATE', 'CERTIFICATE_EXPIRED'] as const;
function asUpload(err: unknown): unknown {
  if (!(err instanceof EngineError)) return err;
  const code = certificateCodes.find((c) => c === err.code);
  if (!code) return err;
  const field = err.code === 'CERTIFICATE_PASSWORD_WRONG' ? 'password' : 'pkcs12';
  return new AppError(code, err.message.replace(/^certificate:/, `${field}:`), {
    details: { ...(err.details as object), field },
    cause: err,
  });
}

export async function listSigningCertificates(db: Db, userId: string): Promise<TSigningCertificate[]> {
  const rows = await db
    .select()
    .from(signingCertificates)
    .where(eq(signingCertificates.userId, userId))
    .orderBy(desc(signingCertificates.createdAt));
  return rows.map(view);
}

/**
 * Store a PKCS#12 for the account: it must open with its password, hold a key and its certificate, and be valid
 * now (what signing would check anyway), so a stored certificate is one that signs. At most MAX_STORED_CERTIFICATES.
 */
export async function storeSigningCertificate(
  db: Db,
  sealer: Sealer,
  userId: string,
  input: TStoreSigningCertificateRequest,
  now = new Date(),
): Promise<TSigningCertificate> {
  const { label, pkcs12, password } = ZStoreSigningCertificateRequest.parse(input);
  const file = Buffer.from(pkcs12, 'base64');
  if (file.length > MAX_STORED_CERTIFICATE_BYTES) {
    throw new AppError('INVALID_INPUT', 'pkcs12: a PKCS#12 file is at most 64 KB', { details: { field: 'pkcs12' } });
  }
  let certificate;
  try {
    certificate = readPkcs12(file, password).certificate;
    assertCurrentlyValid(certificate, now);
  } catch (err) {
    throw asUpload(err);
  }
  const id = randomUUID();
  const sealed = sealer.seal(Buffer.from(JSON.stringify({ pkcs12, password } satisfies Sealed)), binding(userId, id));
  return db.transaction(async (tx) => {
    const [held] = await tx
      .select({ n: count() })
      .from(signingCertificates)
      .where(eq(signingCertificates.userId, userId));
    if ((held?.n ?? 0) >= MAX_STORED_CERTIFICATES) {
      throw new AppError(
        'CERTIFICATE_LIMIT_REACHED',
        `You already store ${MAX_STORED_CERTIFICATES} signing certificates: delete one first`,
        { details: { max: MAX_STORED_CERTIFICATES } },
      );
    }
    const [row] = await tx
      .insert(signingCertificates)
      .values({
        id,
        userId,
        label,
        subject: certificate.subject.split('\n').join(', '),
        commonName: commonNameOf(certificate.subject),
        issuer: certificate.issuer.split('\n').join(', '),
        serialNumber: certificate.serialNumber,
        validFrom: new Date(certificate.validFrom),
        validTo: new Date(certificate.validTo),
        sealed,
        createdAt: now,
      })
      .returning();
    return view(row!);
  });
}

export async function deleteSigningCertificate(db: Db, userId: string, id: string): Promise<void> {
  const gone = await db
    .delete(signingCertificates)
    .where(and(eq(signingCertificates.id, id), eq(signingCertificates.userId, userId)))
    .returning({ id: signingCertificates.id });
  if (gone.length === 0) throw notFound();
}

/** The stored file and its password, for a signature by its owner; its last use is noted. */
export async function openSigningCertificate(
  db: Db,
  sealer: Sealer,
  userId: string,
  id: string,
  now = new Date(),
): Promise<{ pkcs12: Buffer; password: string }> {
  const [row] = await db
    .update(signingCertificates)
    .set({ lastUsedAt: now })
    .where(and(eq(signingCertificates.id, id), eq(signingCertificates.userId, userId)))
    .returning();
  if (!row) throw notFound();
  const plain = sealer.open(row.sealed, binding(userId, id));
  if (!plain) {
    // The server's secret changed since it was stored (JWT_SECRET or DATA_DIR/secrets.json): it cannot be read back.
    throw new AppError(
      'INVALID_CERTIFICATE',
      "certificateId: this stored certificate can no longer be opened (the server's secret changed); store it again",
      { details: { field: 'certificateId' } },
    );
  }
  const box = JSON.parse(plain.toString('utf8')) as Sealed;
  return { pkcs12: Buffer.from(box.pkcs12, 'base64'), password: box.password };
}
