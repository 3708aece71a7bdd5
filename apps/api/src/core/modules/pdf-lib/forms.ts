import {
  PDFButton,
  PDFCheckBox,
  PDFDropdown,
  PDFOptionList,
  PDFRadioGroup,
  PDFRef,
  PDFSignature,
  PDFTextField,
  type PDFDocument,
  type PDFField,
  type PDFWidgetAnnotation,
} from 'pdf-lib';
import { EngineError } from '../../errors';
import type { FormFieldInfo, FormValue, PdfRect } from '../../operations/pdf/interfaces';
import { FormFonts } from './form-fonts';

/** AcroForm fields read and filled with pdf-lib's PDFForm. */

function noFields(): EngineError {
  return new EngineError('NO_FORM_FIELDS', 'file: this PDF has no form fields to list or fill', {
    details: { field: 'file' },
  });
}

function fieldsOf(doc: PDFDocument): PDFField[] {
  const fields = doc.getForm().getFields();
  if (!fields.length) throw noFields();
  return fields;
}

/** Page number (1-based) of each annotation, by the reference the pages' /Annots hold. */
function annotationPages(doc: PDFDocument): Map<PDFRef, number> {
  const pages = new Map<PDFRef, number>();
  doc.getPages().forEach((page, i) => {
    for (const ref of page.node.Annots()?.asArray() ?? []) if (ref instanceof PDFRef) pages.set(ref, i + 1);
  });
  return pages;
}

function widgetPage(doc: PDFDocument, pages: Map<PDFRef, number>, w: PDFWidgetAnnotation): number | null {
  const ref = doc.context.getObjectRef(w.dict);
  const byAnnots = ref ? pages.get(ref) : undefined;
  if (byAnnots !== undefined) return byAnnots;
  // A widget missing from its page's /Annots still names its page in /P.
  const p = w.P();
  const index = p ? doc.getPages().findIndex((page) => page.ref === p) : -1;
  return index >= 0 ? index + 1 : null;
}

const round = (n: number) => Math.round(n * 100) / 100;
const rectOf = (w: PDFWidgetAnnotation): PdfRect => {
  const r = w.getRectangle();
  return { x: round(r.x), y: round(r.y), width: round(r.width), height: round(r.height) };
};

const onValueOf = (box: PDFCheckBox): string => box.acroField.getOnValue()?.decodeText() ?? 'Yes';

function describe(field: PDFField): Pick<FormFieldInfo, 'type' | 'value' | 'options'> & Partial<FormFieldInfo> {
  if (field instanceof PDFTextField) {
    const max = field.getMaxLength();
    return {
      type: 'text',
      value: field.getText() ?? null,
      options: [],
      multiline: field.isMultiline(),
      ...(max !== undefined ? { maxLength: max } : {}),
    };
  }
  if (field instanceof PDFCheckBox) {
    const on = onValueOf(field);
    return { type: 'checkbox', value: field.isChecked() ? on : null, options: [on] };
  }
  if (field instanceof PDFRadioGroup) {
    return { type: 'radio', value: field.getSelected() ?? null, options: field.getOptions() };
  }
  if (field instanceof PDFDropdown || field instanceof PDFOptionList) {
    const multiSelect = field.isMultiselect();
    const selected = field.getSelected();
    return {
      type: 'choice',
      value: multiSelect ? selected : (selected[0] ?? null),
      options: field.getOptions(),
      multiSelect,
      editable: field instanceof PDFDropdown ? field.isEditable() : false,
    };
  }
  if (field instanceof PDFSignature) return { type: 'signature', value: null, options: [] };
  return { type: 'button', value: null, options: [] };
}

export function readFormFields(doc: PDFDocument): FormFieldInfo[] {
  const fields = fieldsOf(doc);
  const pages = annotationPages(doc);
  return fields.map((field) => {
    const widgets = field.acroField.getWidgets().map((w) => ({ page: widgetPage(doc, pages, w), rect: rectOf(w) }));
    return {
      name: field.getName(),
      ...describe(field),
      required: field.isRequired(),
      readOnly: field.isReadOnly(),
      page: widgets[0]?.page ?? null,
      rect: widgets[0]?.rect ?? null,
      widgets,
    };
  });
}

const list = (values: string[]) => values.map((v) => JSON.stringify(v)).join(', ');

function badValue(name: string, message: string, valid?: string[]): EngineError {
  return new EngineError('INVALID_INPUT', `values.${name}: ${message}${valid ? ` (valid: ${list(valid)})` : ''}`, {
    details: { field: `values.${name}`, ...(valid ? { valid } : {}) },
  });
}

/** Spreadsheet-friendly checkbox words (a CSV cell is text), besides true/false and the box's export value. */
const offWords = new Set(['', 'false', '0', 'no', 'off']);
const onWords = new Set(['true', '1', 'yes', 'on', 'x']);
const word = (v: FormValue) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim().toLowerCase() : null);
const isOff = (v: FormValue) => v === null || v === false || offWords.has(word(v) ?? '-');
const isOn = (v: FormValue, on: string) => v === true || v === on || onWords.has(word(v) ?? '-');

/** Sets one field; returns the text its appearance draws (text and choice fields), for the font that draws it. */
function setField(field: PDFField, name: string, value: FormValue): string | null {
  if (field instanceof PDFTextField) {
    if (typeof value === 'boolean' || Array.isArray(value)) throw badValue(name, 'a text field takes a string');
    const text = value === null ? '' : String(value);
    const max = field.getMaxLength();
    if (max !== undefined && text.length > max) {
      throw badValue(name, `at most ${max} characters (got ${text.length})`);
    }
    field.setText(text || undefined);
    return text;
  }
  if (field instanceof PDFCheckBox) {
    const on = onValueOf(field);
    if (value === on) field.check();
    else if (isOff(value)) field.uncheck();
    else if (isOn(value, on)) field.check();
    else throw badValue(name, 'a checkbox takes true or false, or its export value', [on, 'Off']);
    return null;
  }
  if (field instanceof PDFRadioGroup) {
    const options = field.getOptions();
    if (typeof value === 'string' && options.includes(value)) field.select(value);
    else if (value === null || value === '' || value === 'Off') field.clear();
    else throw badValue(name, 'a radio group takes the export value of one of its buttons', options);
    return null;
  }
  if (field instanceof PDFDropdown || field instanceof PDFOptionList) {
    const options = field.getOptions();
    if (value === null || value === '' || (Array.isArray(value) && value.length === 0)) {
      field.clear();
      return options.join('');
    }
    if (typeof value === 'boolean') throw badValue(name, 'a choice field takes one of its choices', options);
    const chosen = Array.isArray(value) ? value : [String(value)];
    if (chosen.length > 1 && !field.isMultiselect()) throw badValue(name, 'this choice field takes one value');
    const editable = field instanceof PDFDropdown && field.isEditable();
    const unknown = chosen.find((c) => !options.includes(c));
    if (unknown !== undefined && !editable) throw badValue(name, `${JSON.stringify(unknown)} is not a choice`, options);
    field.select(chosen.length === 1 ? chosen[0]! : chosen);
    return [...options, ...chosen].join('');
  }
  if (field instanceof PDFSignature) throw badValue(name, 'a signature field is signed, not filled');
  if (field instanceof PDFButton) throw badValue(name, 'a push button holds no value');
  throw badValue(name, 'this field cannot be filled');
}

/**
 * Fill `values` by full name, each text and choice field's appearance drawn with a font that has its characters
 * (so every viewer shows the values, whatever it does with NeedAppearances); optionally flattened.
 */
export async function fillForm(doc: PDFDocument, values: Record<string, FormValue>, flatten: boolean): Promise<void> {
  const fields = fieldsOf(doc);
  const byName = new Map(fields.map((f) => [f.getName(), f]));
  const unknown = Object.keys(values).filter((n) => !byName.has(n));
  if (unknown.length) {
    const names = [...byName.keys()];
    throw new EngineError(
      'INVALID_INPUT',
      `values: this form has no field named ${list(unknown)} (its fields: ${list(names.slice(0, 50))}${names.length > 50 ? ', …' : ''})`,
      { details: { field: 'values', unknown, fields: names } },
    );
  }
  const fonts = new FormFonts(doc);
  for (const [name, value] of Object.entries(values)) {
    const field = byName.get(name)!;
    const drawn = setField(field, name, value);
    if (drawn === null) continue;
    const font = await fonts.fontFor(drawn, `values.${name}`);
    (field as PDFTextField | PDFDropdown | PDFOptionList).updateAppearances(font);
  }
  if (flatten) flattenForm(doc);
}

/**
 * pdf-lib's flatten draws each widget's normal appearance and fails on a widget that has none (an unsigned signature
 * field usually has none): such a widget gets an empty one, as it showed nothing.
 */
function flattenForm(doc: PDFDocument): void {
  const form = doc.getForm();
  for (const field of form.getFields()) {
    for (const widget of field.acroField.getWidgets()) {
      try {
        widget.getNormalAppearance();
      } catch {
        const { width, height } = widget.getRectangle();
        const empty = doc.context.formXObject([], { BBox: [0, 0, width, height] });
        widget.setNormalAppearance(doc.context.register(empty));
      }
    }
  }
  form.flatten();
}
