import { writeFile } from 'node:fs/promises';
import { EngineError } from '../../errors';
import { out, type OutputFile, type PdfJob, type PreparedPdf } from '../pdf/job';
import type { TableBlock } from './model';
import type { ReadOptions } from './read-pages';
import { structurePdf } from './structure';
import { tablesToXlsx } from './tables-xlsx';

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled; lines end with CRLF. */
export function csvOf(t: TableBlock): string {
  const field = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  return t.rows.map((r) => r.cells.map((c) => field(c.text)).join(',')).join('\r\n') + '\r\n';
}

/**
 * Every table of the pages read: csv, one file each (table-p<page>-<n>.csv); xlsx, one workbook with a sheet each.
 * No table at all is the client's to know (422), not an empty file.
 */
export async function extractTables(
  job: PdfJob,
  pdf: PreparedPdf,
  o: ReadOptions & { format: 'csv' | 'xlsx' },
): Promise<OutputFile[]> {
  const pages = await structurePdf(job, pdf, o);
  const found = pages.flatMap((p) =>
    p.blocks
      .filter((b): b is TableBlock => b.type === 'table')
      .map((t, i) => ({ t, name: `table-p${p.page}-${i + 1}` })),
  );
  if (!found.length) {
    throw new EngineError('INVALID_INPUT', `file: no table was found${o.pages ? ' on the pages asked' : ''}`, {
      details: { field: 'file' },
    });
  }
  if (o.format === 'xlsx') return [await tablesToXlsx(job, pages)];
  const files: OutputFile[] = [];
  for (const { t, name } of found) {
    const file = out(job, `${name}.csv`);
    await writeFile(file, csvOf(t), 'utf8');
    files.push({ path: file, name: `${name}.csv` });
  }
  return files;
}
