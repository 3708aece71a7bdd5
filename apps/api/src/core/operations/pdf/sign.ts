import { readFile, writeFile } from 'node:fs/promises';
import { assertCurrentlyValid, commonNameOf, readPkcs12 } from '../../signatures/certificate';
import { buildCadesSignature, type TimeStamper } from '../../signatures/cms';
import { appendSignaturePlaceholder, fillSignature } from '../../signatures/incremental';
import { out, type OutputFile, type PdfJob, type PreparedPdf } from './job';

export interface SignOptions {
  certificate: Buffer;
  password: string;
  reason?: string;
  location?: string;
  contact?: string;
  visible?: {
    page: number;
    x: number;
    y: number;
    width: number;
    height: number;
    image?: { bytes: Buffer; kind: 'png' | 'jpg' };
  };
  /** Time-stamps the signature (PAdES B-T) when given. */
  timeStamper?: TimeStamper;
  now?: Date;
}

/** Room for the CMS beyond its certificates: the signature value, attributes, and a time-stamp token. */
const CMS_OVERHEAD = 4096;
const TIMESTAMP_ROOM = 12_288;

/**
 * Sign a PDF, PAdES baseline B (B-T with a time-stamp): an incremental update holding a signature field whose
 * CAdES-detached CMS covers the whole file but its own hole; earlier signatures stay valid.
 */
export async function signPdf(job: PdfJob, input: PreparedPdf, o: SignOptions): Promise<OutputFile> {
  const identity = readPkcs12(o.certificate, o.password);
  const now = o.now ?? new Date();
  assertCurrentlyValid(identity.certificate, now);
  const name = commonNameOf(identity.certificate.subject) ?? undefined;
  const certBytes = [identity.certificate, ...identity.chain].reduce((n, c) => n + c.raw.length, 0);
  const lines = [
    `Digitally signed by ${name ?? 'the signer'}`,
    `Date: ${now
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC')}`,
    ...(o.reason ? [`Reason: ${o.reason}`] : []),
    ...(o.location ? [`Location: ${o.location}`] : []),
  ];
  const placeholder = await appendSignaturePlaceholder(await readFile(input.path), {
    subFilter: 'ETSI.CAdES.detached',
    reserve: certBytes + CMS_OVERHEAD + (o.timeStamper ? TIMESTAMP_ROOM : 0),
    date: now,
    name,
    reason: o.reason,
    location: o.location,
    contact: o.contact,
    appearance: o.visible ? { ...o.visible, lines } : undefined,
  });
  const signed = await fillSignature(placeholder, (digest) => buildCadesSignature(digest, identity, o.timeStamper));
  const file = out(job, 'signed.pdf');
  await writeFile(file, signed);
  return { path: file, name: 'signed', pages: input.pages };
}
