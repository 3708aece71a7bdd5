import { z } from 'zod';
import { successEnvelope } from './common';
import { ZFormBoolean, ZPdfPasswordField } from './pdf';

/**
 * Fillable PDF forms (AcroForm, group `pdf`): list a form's fields, fill them, and fill one form once per row of data
 * (mail merge). Values travel as a JSON object in a multipart text field, keyed by the fields' full names.
 */

/** Rows one mail merge fills at most: each is a call against the limits, and all are answered at once. */
export const MAX_FORM_MERGE_ROWS = 100;

export const formFieldTypes = ['text', 'checkbox', 'radio', 'choice', 'signature', 'button'] as const;
export const ZFormFieldType = z.enum(formFieldTypes);
export type TFormFieldType = z.infer<typeof ZFormFieldType>;

/** A field's value as sent: text, an export value, true/false for a checkbox, a list for a multiple choice. */
export const ZFormValue = z.union([
  z.string().max(10_000),
  z.boolean(),
  z.number(),
  z.array(z.string()).max(1000),
  z.null(),
]);
export type TFormValue = z.infer<typeof ZFormValue>;
export const ZFormValues = z.record(z.string().max(1000), ZFormValue);
export type TFormValues = z.infer<typeof ZFormValues>;

/** A JSON text field of a multipart form, parsed and checked with `schema` (a 422 naming the field otherwise). */
const jsonText = <T extends z.ZodType>(schema: T, max: number) =>
  z
    .string()
    .max(max)
    .transform((text, ctx): z.output<T> => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be JSON' });
        return z.NEVER;
      }
      const r = schema.safeParse(parsed);
      if (!r.success) {
        const i = r.error.issues[0]!;
        ctx.addIssue({ code: 'custom', message: `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}` });
        return z.NEVER;
      }
      return r.data;
    });

const flatten = ZFormBoolean.default(false).describe(
  'Burn the filled fields into the pages: the values stay visible, the form is no longer fillable',
);

export const ZFormFieldsListFields = ZPdfPasswordField;
export type TFormFieldsListFields = z.infer<typeof ZFormFieldsListFields>;

export const ZFillFormFields = ZPdfPasswordField.extend({
  values: jsonText(ZFormValues, 1_000_000).describe(
    'JSON object of values by field name (the full name POST /pdf/forms/fields lists), e.g. {"name":"Zoë","agree":true,"color":"blue"}: ' +
      'text as a string; a checkbox true/false (or yes/no, x, 1/0, its export value, "Off"); a radio group or a choice by export value (a list for a multiple choice). ' +
      'A name the form does not have is refused (422 naming it).',
  ),
  flatten,
});
export type TFillFormFields = z.infer<typeof ZFillFormFields>;

export const ZFormMergeOutput = z.enum(['zip', 'merged']);
export const ZFormMergeFields = ZPdfPasswordField.extend({
  rows: jsonText(z.array(ZFormValues).min(1).max(MAX_FORM_MERGE_ROWS), 10_000_000)
    .optional()
    .describe(
      `JSON array of value objects, one filled copy per row (as \`values\` of POST /pdf/forms/fill), at most ${MAX_FORM_MERGE_ROWS}; or send a CSV file as \`csv\` instead`,
    ),
  output: ZFormMergeOutput.default('zip').describe(
    'zip: one PDF per row in a zip; merged: one PDF of every copy in row order (each copy flattened, as copies of one form would share their fields)',
  ),
  flatten,
  nameField: z
    .string()
    .max(1000)
    .optional()
    .describe('For output=zip: the column whose value names each PDF (default: row numbers, 001.pdf…)'),
});
export type TFormMergeFields = z.infer<typeof ZFormMergeFields>;

// ------------------------------------------------------------------ answers

const ZFieldRect = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

export const ZFormField = z
  .object({
    name: z.string().describe('Full name (parents joined with dots): the key to fill it by'),
    type: ZFormFieldType,
    value: z
      .union([z.string(), z.array(z.string()), z.null()])
      .describe('Text; the export value of a checked checkbox or a radio group; the choice(s); null when empty or off'),
    options: z
      .array(z.string())
      .describe('Export values of a checkbox or a radio group, the choices of a choice field'),
    required: z.boolean(),
    readOnly: z.boolean(),
    multiline: z.boolean().optional(),
    maxLength: z.number().int().optional(),
    multiSelect: z.boolean().optional().describe('A choice field that takes several values'),
    editable: z.boolean().optional().describe('A combo box that takes text of its own'),
    page: z.number().int().nullable().describe('Page (1-based) of its first widget; null when it has none on a page'),
    rect: ZFieldRect.nullable().describe('Rectangle of its first widget, in PDF points from the page’s lower left'),
    widgets: z.array(z.object({ page: z.number().int().nullable(), rect: ZFieldRect })),
  })
  .meta({ id: 'FormField' });
export type TFormField = z.infer<typeof ZFormField>;

export const ZFormFieldsList = z
  .object({ count: z.number().int(), fields: z.array(ZFormField) })
  .meta({ id: 'FormFields' });
export const ZFormFieldsResponse = successEnvelope(ZFormFieldsList);

export const formEndpointFields = {
  '/pdf/forms/fields': ZFormFieldsListFields,
  '/pdf/forms/fill': ZFillFormFields,
  '/pdf/forms/merge': ZFormMergeFields,
} as const;
