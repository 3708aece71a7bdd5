import { AFRelationship, type PDFDocument } from 'pdf-lib';
import type { FacturXSpec } from '../operations/pdf/interfaces';
import { escapeXml, documentPacket, writePacket } from './xmp';
import { addDescription, declareExtensionSchema, type ExtensionSchema } from './xmp-extensions';

/**
 * Factur-X 1.0 / ZUGFeRD 2.x: a PDF/A-3 invoice carrying its CII XML as the embedded file "factur-x.xml" in an
 * "Alternative" relationship (the same invoice, for machines), and telling so in its XMP (the fx properties, declared
 * as a PDF/A extension schema). Validators (Mustang, veraPDF, the FNFE's checker) look at exactly these three.
 */

export const FACTURX_NS = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';
export const FACTURX_FILE_NAME = 'factur-x.xml';
export const FACTURX_LEVELS: ReadonlyArray<FacturXSpec['conformanceLevel']> = [
  'MINIMUM',
  'BASIC WL',
  'BASIC',
  'EN 16931',
  'EXTENDED',
  'XRECHNUNG',
];
export const FACTURX_DOCUMENT_TYPES: ReadonlyArray<FacturXSpec['documentType']> = [
  'INVOICE',
  'ORDER',
  'ORDER_RESPONSE',
  'ORDER_CHANGE',
];

const external = (name: string, description: string) => ({
  name,
  valueType: 'Text',
  category: 'external' as const,
  description,
});

const facturXSchema: ExtensionSchema = {
  name: 'Factur-X PDFA Extension Schema',
  namespaceUri: FACTURX_NS,
  prefix: 'fx',
  properties: [
    external('DocumentFileName', 'name of the embedded XML invoice file'),
    external('DocumentType', 'INVOICE'),
    external('Version', 'The actual version of the Factur-X XML schema'),
    external('ConformanceLevel', 'The conformance level of the embedded Factur-X data'),
  ],
};

/** The packet with the fx properties and their schema; a packet that already has them is left as it is. */
export function withFacturXXmp(xml: string, spec: FacturXSpec): string {
  if (xml.includes(`xmlns:fx="${FACTURX_NS}"`)) return xml;
  const fx = (name: string, value: string) => `   <fx:${name}>${escapeXml(value)}</fx:${name}>\n`;
  const description =
    `  <rdf:Description rdf:about="" xmlns:fx="${FACTURX_NS}">\n` +
    fx('DocumentType', spec.documentType) +
    fx('DocumentFileName', FACTURX_FILE_NAME) +
    fx('Version', spec.version) +
    fx('ConformanceLevel', spec.conformanceLevel) +
    '  </rdf:Description>\n';
  return declareExtensionSchema(addDescription(xml, description), facturXSchema);
}

/** The invoice XML embedded and declared in `doc` (a PDF/A-3 document, whose packet carries its pdfaid). */
export async function embedFacturX(doc: PDFDocument, invoice: Uint8Array, spec: FacturXSpec, now = new Date()) {
  await doc.attach(invoice, FACTURX_FILE_NAME, {
    mimeType: 'text/xml',
    description: 'Factur-X invoice',
    creationDate: now,
    modificationDate: now,
    afRelationship: AFRelationship.Alternative,
  });
  const packet = documentPacket(doc);
  if (packet === null) throw new Error('a PDF/A-3 document without a readable XMP packet');
  writePacket(doc, withFacturXXmp(packet, spec));
}
