import type { Attachment } from '../../core/operations/pdf/interfaces';
import type { UploadedFile } from '../../lib/uploads';
import type { GotenbergForm } from './form';

/**
 * Gotenberg's `embeds` files and its `embedsMetadata` field (a JSON object by file name of `{ "mimeType",
 * "relationship" }`) as DocFlow's attachments. The MIME type is written; an AFRelationship (PDF/A-3's link of a file to
 * the document) is not, and is refused by name.
 */
export function readEmbeds(form: GotenbergForm, extras: UploadedFile[]): Attachment[] {
  const embeds = extras.filter((f) => f.field === 'embeds');
  const json = form.json('embedsMetadata');
  const meta: Record<string, { mimeType?: string }> = {};
  if (json !== undefined) {
    const entries = typeof json === 'object' && json !== null && !Array.isArray(json) ? Object.entries(json) : null;
    if (!entries)
      form.fail(
        'embedsMetadata',
        'is invalid: expected a JSON object by file name, such as {"data.xml":{"mimeType":"text/xml"}}',
      );
    for (const [name, value] of entries ?? []) {
      const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
      for (const key of Object.keys(v)) {
        if (key === 'mimeType' && typeof v[key] === 'string') continue;
        form.fail(
          'embedsMetadata',
          key === 'relationship'
            ? `has a 'relationship' for '${name}', which DocFlow does not write (only 'mimeType')`
            : `has '${key}' for '${name}' (valid: mimeType, a string)`,
        );
      }
      if (!embeds.some((f) => f.filename === name))
        form.fail('embedsMetadata', `names '${name}', which is not among the 'embeds' files`);
      meta[name] = { mimeType: typeof v.mimeType === 'string' ? v.mimeType : undefined };
    }
  }
  return embeds.map((f) => ({ path: f.path, name: f.filename, mimeType: meta[f.filename]?.mimeType }));
}
