import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption at rest of the stored signing certificates: AES-256-GCM under a key derived (HKDF-SHA256) from the
 * server's secret, so a copy of the database alone opens none of them. Each box is bound to its row (the owner and
 * the certificate's id are the additional data): a box copied onto another row or account does not open there.
 */
export interface Sealer {
  seal(plain: Buffer, boundTo: string): string;
  /** null: the box does not open (another server secret, or a row edited by hand). */
  open(box: string, boundTo: string): Buffer | null;
}

const VERSION = 1;

export function sealerFor(serverSecret: Uint8Array): Sealer {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, 'docflow', 'signing-certificates v1', 32));
  return {
    seal(plain, boundTo) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(boundTo, 'utf8'));
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]).toString('base64');
    },
    open(box, boundTo) {
      const bytes = Buffer.from(box, 'base64');
      if (bytes.length < 29 || bytes[0] !== VERSION) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(1, 13)).setAAD(
          Buffer.from(boundTo, 'utf8'),
        );
        decipher.setAuthTag(bytes.subarray(13, 29));
        return Buffer.concat([decipher.update(bytes.subarray(29)), decipher.final()]);
      } catch {
        return null;
      }
    },
  };
}
