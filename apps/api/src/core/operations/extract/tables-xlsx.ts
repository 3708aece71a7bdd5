import ExcelJS from 'exceljs';
import { out, type OutputFile, type PdfJob } from '../pdf/job';
import type { StructuredPage, TableBlock } from './model';

/** A cell that reads as a plain number (42.5, -3, 1,234.5) is written as one, so a spreadsheet can sum it. */
const NUMBER = /^-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/;
const valueOf = (s: string): string | number => (NUMBER.test(s.trim()) ? Number(s.trim().replace(/,/g, '')) : s);

/** One workbook, one sheet per table, named p<page>-<n> (in page order); the first row bold, as a header. */
export async function tablesToXlsx(job: PdfJob, pages: StructuredPage[]): Promise<OutputFile> {
  const book = new ExcelJS.Workbook();
  book.creator = 'DocFlow';
  for (const p of pages) {
    const tables = p.blocks.filter((b): b is TableBlock => b.type === 'table');
    for (const [i, t] of tables.entries()) {
      const sheet = book.addWorksheet(`p${p.page}-${i + 1}`);
      for (const r of t.rows) sheet.addRow(r.cells.map((c) => valueOf(c.text)));
      sheet.getRow(1).font = { bold: true };
    }
  }
  const file = out(job, 'tables.xlsx');
  await book.xlsx.writeFile(file);
  return { path: file, name: 'tables.xlsx' };
}
