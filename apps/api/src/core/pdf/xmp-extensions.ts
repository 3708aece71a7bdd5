import { XmlScanError, findElement, scanXml } from './xml-scan';
import { escapeXml, isRdf } from './xmp';

/**
 * What PDF/A asks of an XMP packet that carries properties outside its predefined schemas (Factur-X's fx, PDF/UA's
 * pdfuaid): each such schema declared in the packet's pdfaExtension:schemas bag. Without it a PDF/A validator refuses
 * the file even though the properties are right.
 */

export interface ExtensionSchema {
  /** Human name of the schema (pdfaSchema:schema). */
  name: string;
  namespaceUri: string;
  prefix: string;
  properties: Array<{ name: string; valueType: string; category: 'internal' | 'external'; description: string }>;
}

const EXTENSION_NS = {
  pdfaExtension: 'http://www.aiim.org/pdfa/ns/extension/',
  pdfaSchema: 'http://www.aiim.org/pdfa/ns/schema#',
  pdfaProperty: 'http://www.aiim.org/pdfa/ns/property#',
};

function schemaItem(s: ExtensionSchema): string {
  const props = s.properties
    .map(
      (p) =>
        `      <rdf:li rdf:parseType="Resource">\n` +
        `       <pdfaProperty:name>${escapeXml(p.name)}</pdfaProperty:name>\n` +
        `       <pdfaProperty:valueType>${escapeXml(p.valueType)}</pdfaProperty:valueType>\n` +
        `       <pdfaProperty:category>${p.category}</pdfaProperty:category>\n` +
        `       <pdfaProperty:description>${escapeXml(p.description)}</pdfaProperty:description>\n` +
        `      </rdf:li>\n`,
    )
    .join('');
  return (
    `    <rdf:li rdf:parseType="Resource">\n` +
    `     <pdfaSchema:schema>${escapeXml(s.name)}</pdfaSchema:schema>\n` +
    `     <pdfaSchema:namespaceURI>${escapeXml(s.namespaceUri)}</pdfaSchema:namespaceURI>\n` +
    `     <pdfaSchema:prefix>${escapeXml(s.prefix)}</pdfaSchema:prefix>\n` +
    `     <pdfaSchema:property>\n      <rdf:Seq>\n${props}      </rdf:Seq>\n     </pdfaSchema:property>\n` +
    `    </rdf:li>\n`
  );
}

/** Where rdf:RDF closes: descriptions are added just before. */
function rdfEnd(xml: string): number {
  const rdf = findElement(scanXml(xml), (el) => isRdf(el, 'RDF'));
  if (!rdf || rdf.closeStart === undefined) throw new XmlScanError('no rdf:RDF element');
  return rdf.closeStart;
}

/** `description` (one rdf:Description, complete) added as the last child of rdf:RDF. */
export function addDescription(xml: string, description: string): string {
  const at = rdfEnd(xml);
  return `${xml.slice(0, at)}${description}${xml.slice(at)}`;
}

/** The schema declared in the packet's extension bag (created when absent); a schema already declared is kept. */
export function declareExtensionSchema(xml: string, schema: ExtensionSchema): string {
  if (xml.includes(`>${schema.namespaceUri}<`)) return xml;
  const bag = /<pdfaExtension:schemas>\s*<rdf:Bag\s*>/.exec(xml);
  if (bag) {
    const at = bag.index + bag[0].length;
    return `${xml.slice(0, at)}\n${schemaItem(schema)}${xml.slice(at)}`;
  }
  const xmlns = Object.entries(EXTENSION_NS)
    .map(([prefix, uri]) => ` xmlns:${prefix}="${uri}"`)
    .join('');
  return addDescription(
    xml,
    `  <rdf:Description rdf:about=""${xmlns}>\n   <pdfaExtension:schemas>\n    <rdf:Bag>\n${schemaItem(schema)}    </rdf:Bag>\n   </pdfaExtension:schemas>\n  </rdf:Description>\n`,
  );
}
