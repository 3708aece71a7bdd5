import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { verifySignatures, type SignatureReport } from '../../signatures/verify';
import type { PreparedPdf } from './job';

/** Every signature of a PDF checked against the server's trust anchors (PEM); none: "intact, signer not trusted". */
export async function verifyPdfSignatures(
  input: PreparedPdf,
  trustAnchors: readonly string[],
): Promise<{ signatures: SignatureReport[]; count: number; trustAnchorsConfigured: boolean }> {
  const anchors = trustAnchors.map((pem) => new X509Certificate(pem));
  const signatures = await verifySignatures(await readFile(input.path), anchors);
  return { signatures, count: signatures.length, trustAnchorsConfigured: anchors.length > 0 };
}
