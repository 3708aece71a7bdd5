import { AF_RELATIONSHIPS, type AfRelationship, type Attachment } from '../../core/operations/pdf/interfaces';
import type { UploadedFile } from '../../lib/uploads';
import type { GotenbergForm } from './form';

/**
 * Gotenberg's `embeds` files and its `embedsMetadata` field (a JSON object by file name of `{ "mimeType",
 * "relationship" }`) as DocFlow's attachments: the MIME type, and the AFRelationship (Source, Data, Alternative,
 * Supplement, Unspecified), which also lists the file in the catalog's /AF.
 */
export function readEmbeds(form: GotenbergForm, extras: UploadedFile[]): Attachment[] {
  const embeds = extras.filter((f) => f.field === 'embeds');
  const json = form.json('embedsMetadata');
  const meta: Record<string, { mimeType?: string; relationship?: AfRelationship }> = {};
  if (json !== undefined) {
    const entries = typeof json === 'object' && json !== null && !Array.isArray(json) ? Object.entries(json) : null;
    if (!entries)
      form.fail(
        'embedsMetadata',
        'is invalid: expected a JSON object by file name, such as {"data.xml":{"mimeType":"text/xml"}}',
      );
    for (const [name, value] of entries ?? []) {
      const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
      const relationship = AF_RELATIONSHIPS.find((r) => r === v.relationship);
      for (const key of Object.keys(v)) {
        if (key === 'mimeType' && typeof v[key] === 'string') continue;
        if (key === 'relationship' && relationship) continue;
        form.fail(
          'embedsMetadata',
          key === 'relationship'
            ? `has the relationship ${JSON.stringify(v[key])} for '${name}' (valid: ${AF_RELATIONSHIPS.join(', ')})`
            : `has '${key}' for '${name}' (valid: mimeType, a string; relationship)`,
        );
      }
      if (!embeds.some((f) => f.filename === name))
        form.fail('embedsMetadata', `names '${name}', which is not among the 'embeds' files`);
      meta[name] = { mimeType: typeof v.mimeType === 'string' ? v.mimeType : undefined, relationship };
    }
  }
  return embeds.map((f) => ({ path: f.path, name: f.filename, ...meta[f.filename] }));
}
