import { ZFileResultResponse, ZFormFieldsResponse, MAX_FORM_MERGE_ROWS } from '@docflow/contracts';
import { readFormFields } from '../../core/operations/pdf/read-form-fields';
import { formRows, type FormRow } from '../../core/operations/pdf/form-rows';
import { mergeForm } from '../../core/operations/pdf/merge-form';
import { baseName, outputName } from '../../lib/send-result';
import { dataOutcome, fileOutcome, zipOutcome } from '../../lib/outcome';
import { callError } from '../call-errors';
import { defineEndpoint, type ProcessingEndpoint } from '../processing-endpoint';

/**
 * The form endpoints that are more than a PDF step: the field list (JSON) and the mail merge (N rows, N copies). The
 * fill itself is a step (endpoints/pdf/steps.ts), so a pipeline may fill a form between other stages.
 */

const form = { description: 'The PDF form (AcroForm fields)' };

/** A zip entry name per row: the `nameField` column's value when given and not empty, else the row number. */
function entryNames(from: string, rows: FormRow[], nameField: string | undefined): string[] {
  const used = new Set<string>();
  const width = String(rows.length).length < 3 ? 3 : String(rows.length).length;
  return rows.map((row, i) => {
    const own = nameField !== undefined ? row[nameField] : undefined;
    const stem =
      typeof own === 'string' && own.trim()
        ? // A value is a name, not a path: its slashes become underscores rather than folders.
          baseName(`${own.trim().replace(/[\\/]/g, '_')}.pdf`)
        : `${baseName(from)}-${String(i + 1).padStart(width, '0')}`;
    let name = `${stem}.pdf`;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${stem} (${n}).pdf`;
    used.add(name.toLowerCase());
    return name;
  });
}

export const formEndpoints: readonly ProcessingEndpoint[] = [
  defineEndpoint('/pdf/forms/fields', {
    description:
      'Every field of the form: its full name (the key POST /pdf/forms/fill takes), type (text, checkbox, radio, choice, signature, button), value, ' +
      'options (export values of checkboxes and radio buttons, choices of a choice field), required and read-only flags, and the page (1-based) and ' +
      'rectangle (PDF points from the lower left) of its first widget, all widgets under `widgets`. A PDF without fields: 422 NO_FORM_FIELDS.',
    files: form,
    response: ZFormFieldsResponse,
    async run({ fields, files, job, prepare }) {
      const input = await prepare(files[0]!, { password: fields.password });
      return dataOutcome(await readFormFields(job, input));
    },
  }),

  defineEndpoint('/pdf/forms/merge', {
    description:
      `One filled copy of the form per row, rows as a JSON array in \`rows\` or a CSV file in \`csv\` (first line: the field names; comma or semicolon), at most ${MAX_FORM_MERGE_ROWS} rows. ` +
      'Each row counts as one call against the limits, all counted before any work (refused whole, 429, when they do not all fit), and is metered as one (a usage event per row). ' +
      'output=zip answers a zip of one PDF per row (named by `nameField` or by row number); output=merged one PDF of every copy, flattened. ' +
      'A row with a field the form lacks or a value it cannot take is refused, the message starting with `rows[n]:` (1-based).',
    files: {
      ...form,
      extra: { csv: 'The rows as CSV (UTF-8): a header of field names, then one line per copy; instead of `rows`' },
    },
    response: ZFileResultResponse.describe(
      'A zip of the filled PDFs (output=zip) or one PDF (output=merged) with Content-Disposition; with Accept: application/json, this JSON',
    ),
    async admit({ fields, extras }) {
      try {
        const rows = await formRows(fields.rows, extras.csv?.path);
        // N rows are N calls, counted when the call is admitted (a job's later run counts nothing more).
        return { extraCalls: rows.length - 1 };
      } catch (err) {
        throw callError(err);
      }
    },
    async run({ fields, files, extras, job, prepare, meter, step }) {
      const rows = await formRows(fields.rows, extras.csv?.path);
      const from = files[0]!;
      // One usage event per row, as the limits counted them (the call's time, output and pages shared out).
      const bytesIn = from.size + (extras.csv?.size ?? 0);
      meter.stages = rows.map((_, i) => ({
        endpoint: '/pdf/forms/merge',
        group: 'pdf',
        statusCode: null,
        errorCode: null,
        durationMs: null,
        bytesIn: i === 0 ? bytesIn : 0,
        bytesOut: null,
        pages: null,
      }));
      const input = await prepare(from, { password: fields.password });
      const outputs = await mergeForm(job, input, {
        rows,
        output: fields.output,
        flatten: fields.flatten,
        onRow: (row, pages) => step?.({ name: `row ${row}`, status: 'succeeded', pages }, rows.length),
      });
      // Each copy is a filled form: its pages are metered as a fill's would be.
      meter.pages = input.pages * rows.length;
      const headers = { 'X-Filled-Count': rows.length };
      if (fields.output === 'merged') {
        const merged = outputs[0]!;
        return fileOutcome(
          {
            path: merged.path,
            fileName: outputName(from.filename, 'merged', 'pdf'),
            mimeType: 'application/pdf',
            pages: merged.pages,
          },
          headers,
        );
      }
      const names = entryNames(from.filename, rows, fields.nameField);
      return zipOutcome(
        outputs.map((o, i) => ({ path: o.path, name: names[i]! })),
        outputName(from.filename, 'filled', 'zip'),
        { pages: input.pages * rows.length, headers },
      );
    },
  }),
];
