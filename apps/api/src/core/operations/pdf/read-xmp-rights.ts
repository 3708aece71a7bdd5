import { readFile } from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';
import type { PreparedPdf } from './job';
import { documentPacket } from '../../pdf/xmp';
import { readXmpRights, type XmpRights } from '../../pdf/xmp-rights';

/**
 * A PDF's copyright notice, rights marking and trapping, which live in its XMP packet only (the Info dictionary's
 * readers do not see them); nothing when it has no readable packet.
 */
export async function readPdfXmpRights(input: PreparedPdf): Promise<XmpRights> {
  const doc = await PDFDocument.load(await readFile(input.path), { ignoreEncryption: true, updateMetadata: false });
  const packet = documentPacket(doc);
  return packet === null ? {} : readXmpRights(packet);
}
