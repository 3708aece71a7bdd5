import { PDFBool, PDFDict, PDFName, type PDFDocument } from 'pdf-lib';
import { EngineError } from '../errors';
import { documentPacket, setXmpProperties, writePacket } from './xmp';
import { declareExtensionSchema } from './xmp-extensions';

/**
 * PDF/UA-1 (ISO 14289-1) as a declaration on a tagged document: pdfuaid:part=1 in its XMP, /MarkInfo /Marked true and
 * the title shown in the window (/DisplayDocTitle). The tags themselves come from the producer (LibreOffice's
 * UseTaggedPDF, Chromium's tagged printing): a document with no structure tree is refused, its declaration would be false.
 */

const pdfuaSchema = {
  name: 'PDF/UA Universal Accessibility Schema',
  namespaceUri: 'http://www.aiim.org/pdfua/ns/id/',
  prefix: 'pdfuaid',
  properties: [
    {
      name: 'part',
      valueType: 'Integer',
      category: 'internal' as const,
      description: 'Indicates, which part of ISO 14289 standard is followed',
    },
  ],
};

export function declarePdfUa(doc: PDFDocument): void {
  if (!doc.catalog.has(PDFName.of('StructTreeRoot')))
    throw new EngineError(
      'INVALID_INPUT',
      'PDF/UA needs a tagged PDF (a structure tree), and this one has none: produce it tagged (LibreOffice, Chromium) or leave pdfua out',
      { details: { field: 'pdfua' } },
    );
  doc.catalog.set(PDFName.of('MarkInfo'), doc.context.obj({ Marked: PDFBool.True }));
  const prefs = doc.catalog.lookupMaybe(PDFName.of('ViewerPreferences'), PDFDict) ?? doc.context.obj({});
  prefs.set(PDFName.of('DisplayDocTitle'), PDFBool.True);
  doc.catalog.set(PDFName.of('ViewerPreferences'), prefs);
  setXmpProperties(doc, [{ schema: 'pdfuaid', name: 'part', shape: 'text', values: ['1'] }]);
  // In a PDF/A document, pdfuaid is a schema PDF/A does not predefine: declared, or the file is no longer PDF/A.
  const packet = documentPacket(doc);
  if (packet?.includes('http://www.aiim.org/pdfa/ns/id/'))
    writePacket(doc, declareExtensionSchema(packet, pdfuaSchema));
}
