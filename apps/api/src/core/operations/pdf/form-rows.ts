import { readFile } from 'node:fs/promises';
import { MAX_FORM_MERGE_ROWS } from '@docflow/contracts';
import { EngineError } from '../../errors';
import type { FormValue } from './interfaces';

export type FormRow = Record<string, FormValue>;

const invalid = (field: string, message: string, details: object = {}) =>
  new EngineError('INVALID_INPUT', `${field}: ${message}`, { details: { field, ...details } });

/**
 * RFC 4180 records: quoted cells may hold the delimiter, line breaks and doubled quotes. The delimiter is a comma, or
 * a semicolon when the header has semicolons and no comma (spreadsheets saved in locales with a decimal comma).
 */
export function parseCsv(text: string): string[][] {
  const src = text.replace(/^\uFEFF/, '');
  const firstLine = src.slice(0, src.search(/\r?\n|$/));
  const delimiter = !firstLine.includes(',') && firstLine.includes(';') ? ';' : ',';
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === delimiter) {
      record.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
    } else cell += ch;
  }
  if (quoted) throw invalid('csv', 'a quoted cell is not closed');
  if (cell !== '' || record.length) records.push([...record, cell]);
  return records;
}

/** CSV rows as value objects by the header's names; rows of empty cells are skipped. */
function csvRows(text: string): FormRow[] {
  const [header, ...records] = parseCsv(text);
  const names = (header ?? []).map((h) => h.trim());
  if (!names.length || names.every((n) => !n)) throw invalid('csv', 'the first line must name the fields');
  const blank = names.findIndex((n) => !n);
  if (blank >= 0) throw invalid('csv', `column ${blank + 1} of the first line has no field name`);
  const rows: FormRow[] = [];
  records.forEach((cells, i) => {
    if (cells.every((c) => c === '')) return;
    if (cells.length > names.length) {
      throw invalid('csv', `line ${i + 2} has ${cells.length} cells, the header ${names.length}`, { line: i + 2 });
    }
    rows.push(Object.fromEntries(names.map((n, j) => [n, cells[j] ?? ''])));
  });
  return rows;
}

/** The rows of a mail merge: the JSON `rows` field or the `csv` file (one of the two), at most MAX_FORM_MERGE_ROWS. */
export async function formRows(json: FormRow[] | undefined, csvFile: string | undefined): Promise<FormRow[]> {
  if (json && csvFile) throw invalid('rows', 'send the rows as JSON in "rows" or as a CSV file in "csv", not both');
  if (!json && !csvFile) throw invalid('rows', 'send the rows as a JSON array in "rows" or as a CSV file in "csv"');
  const rows = json ?? csvRows(await readFile(csvFile!, 'utf8'));
  const field = json ? 'rows' : 'csv';
  if (!rows.length) throw invalid(field, 'no rows to fill the form with');
  if (rows.length > MAX_FORM_MERGE_ROWS) {
    throw invalid(field, `at most ${MAX_FORM_MERGE_ROWS} rows per call (got ${rows.length})`, {
      max: MAX_FORM_MERGE_ROWS,
    });
  }
  return rows;
}
