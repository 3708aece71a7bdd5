import { PDFArray, PDFDict, PDFName, PDFRef, type PDFDocument } from 'pdf-lib';

export interface ScrubTally {
  metadata: boolean;
  attachments: boolean;
  javascript: boolean;
}

/**
 * What a document carries beside its pages that a redaction should not leave behind: the document information and
 * XMP metadata, embedded (and associated) files, and JavaScript: the document's, its open action, and the
 * pages' and annotations' actions.
 */
export function scrubDocument(doc: PDFDocument): ScrubTally {
  const catalog = doc.catalog;
  const tally: ScrubTally = { metadata: false, attachments: false, javascript: false };
  if (doc.context.trailerInfo.Info) {
    doc.context.trailerInfo.Info = undefined;
    tally.metadata = true;
  }
  if (catalog.has(PDFName.of('Metadata'))) {
    catalog.delete(PDFName.of('Metadata'));
    tally.metadata = true;
  }
  // PDF 2.0 associated files name the same file specifications from the catalog.
  if (catalog.has(PDFName.of('AF'))) {
    catalog.delete(PDFName.of('AF'));
    tally.attachments = true;
  }
  const names = catalog.lookup(PDFName.of('Names'));
  if (names instanceof PDFDict) {
    if (names.has(PDFName.of('EmbeddedFiles'))) {
      names.delete(PDFName.of('EmbeddedFiles'));
      tally.attachments = true;
    }
    if (names.has(PDFName.of('JavaScript'))) {
      names.delete(PDFName.of('JavaScript'));
      tally.javascript = true;
    }
  }
  const open = catalog.lookup(PDFName.of('OpenAction'));
  if (open instanceof PDFDict && open.lookup(PDFName.of('S')) === PDFName.of('JavaScript')) {
    catalog.delete(PDFName.of('OpenAction'));
    tally.javascript = true;
  }
  if (catalog.has(PDFName.of('AA'))) {
    catalog.delete(PDFName.of('AA'));
    tally.javascript = true;
  }
  // Pages' and annotations' own actions: page open/close scripts, links and widgets that run JavaScript.
  for (const page of doc.getPages()) {
    if (page.node.has(PDFName.of('AA'))) {
      page.node.delete(PDFName.of('AA'));
      tally.javascript = true;
    }
    const annots = page.node.lookup(PDFName.of('Annots'));
    for (const item of annots instanceof PDFArray ? annots.asArray() : []) {
      const annot = item instanceof PDFRef ? doc.context.lookup(item) : item;
      if (!(annot instanceof PDFDict)) continue;
      const action = annot.lookup(PDFName.of('A'));
      if (action instanceof PDFDict && action.lookup(PDFName.of('S')) === PDFName.of('JavaScript')) {
        annot.delete(PDFName.of('A'));
        tally.javascript = true;
      }
      if (annot.has(PDFName.of('AA'))) {
        annot.delete(PDFName.of('AA'));
        tally.javascript = true;
      }
    }
  }
  return tally;
}

/**
 * The optional-content groups a viewer hides when it opens the document (the default configuration's /OFF list;
 * with /BaseState /OFF, every group not listed /ON). Their content is removed from the pages by the scrub: hidden is
 * not removed, and a reader can switch a layer on.
 */
export function hiddenLayers(doc: PDFDocument): Set<PDFDict> {
  const hidden = new Set<PDFDict>();
  const ocp = doc.catalog.lookup(PDFName.of('OCProperties'));
  if (!(ocp instanceof PDFDict)) return hidden;
  const config = ocp.lookup(PDFName.of('D'));
  const dicts = (o: unknown) =>
    (o instanceof PDFArray ? o.asArray() : [])
      .map((g) => (g instanceof PDFRef ? doc.context.lookup(g) : g))
      .filter((g): g is PDFDict => g instanceof PDFDict);
  const on = config instanceof PDFDict ? new Set(dicts(config.lookup(PDFName.of('ON')))) : new Set<PDFDict>();
  if (config instanceof PDFDict && config.lookup(PDFName.of('BaseState')) === PDFName.of('OFF')) {
    for (const g of dicts(ocp.lookup(PDFName.of('OCGs')))) if (!on.has(g)) hidden.add(g);
  }
  if (config instanceof PDFDict) for (const g of dicts(config.lookup(PDFName.of('OFF')))) hidden.add(g);
  return hidden;
}
