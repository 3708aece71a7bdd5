import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileOutcome, zipOutcome, type Outcome } from '../../lib/outcome';
import { baseName, mimeOf } from '../../lib/send-result';

/** One file a Gotenberg route answers, with the name Gotenberg gives it (inside a zip, or when no name is asked). */
export interface NamedFile {
  path: string;
  name: string;
  pages?: number;
}

/** A fresh Gotenberg-style name: conversions and merges are named by a UUID unless the client names them. */
export const uuidName = (ext = '.pdf') => `${randomUUID()}${ext}`;

/**
 * A conversion's outputs as Gotenberg names them: one (not split) by a UUID, several after their sources
 * ("report.docx.pdf"), split parts after what was split ("report.docx_0.pdf").
 */
export function conversionOutputs(outputs: NamedFile[], opts: { split?: unknown }): NamedFile[] {
  if (outputs.length === 1 && !opts.split) return [{ ...outputs[0]!, name: uuidName() }];
  return outputs;
}

/** The name asked with `Gotenberg-Output-Filename` (Gotenberg appends the extension), made safe. */
function askedName(header: string | undefined): string | undefined {
  if (typeof header !== 'string' || !header.trim()) return undefined;
  return baseName(`${header.trim()}.x`, '') || undefined;
}

/**
 * Gotenberg's answer: one output as itself, several as a zip of their names; the download named by
 * Gotenberg-Output-Filename, or else after the output (one) or a UUID (zip). Always the file, whatever Accept says.
 */
export function outputsOutcome(outputs: NamedFile[], outputFilename: string | undefined): Outcome {
  const asked = askedName(outputFilename);
  const pages = outputs.reduce((n, o) => n + (o.pages ?? 0), 0) || undefined;
  if (outputs.length === 1) {
    const o = outputs[0]!;
    const ext = path.extname(o.name) || '.pdf';
    const fileName = asked ? `${asked}${ext}` : o.name;
    return fileOutcome({ path: o.path, fileName, mimeType: mimeOf(fileName), pages }, {}, { json: false });
  }
  const entries = outputs.map((o) => ({ path: o.path, name: o.name }));
  return zipOutcome(entries, `${asked ?? randomUUID()}.zip`, { pages, json: false });
}
