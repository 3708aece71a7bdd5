import type { Block, StructuredPage, TableBlock } from './model';

/**
 * Markdown of the structured pages. Each page starts with `<!-- page N -->` (invisible when rendered, easy to split
 * on); images are references named by page and order; numbered items of any style (1., a), iv.) become 1. 2. …
 */

const escapeCell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

function tableMarkdown(t: TableBlock): string {
  const width = Math.max(...t.rows.map((r) => r.cells.length));
  const row = (cells: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => escapeCell(cells[i] ?? '')).join(' | ')} |`;
  const [head, ...body] = t.rows.map((r) => r.cells.map((c) => c.text));
  return [row(head!), `| ${Array.from({ length: width }, () => '---').join(' | ')} |`, ...body.map(row)].join('\n');
}

function blockMarkdown(b: Block, counters: number[]): string {
  if (b.type === 'heading') return `${'#'.repeat(b.level ?? 1)} ${b.text}`;
  if (b.type === 'table') return tableMarkdown(b);
  if (b.type === 'image') return `![image ${b.id}](image-${b.id})`;
  if (b.type === 'list-item') {
    const depth = b.level ?? 0;
    counters.length = depth + 1;
    // A numbered list right after a bulleted one at the same depth starts again from 1.
    const kind = b.ordered ? 1 : -1;
    counters[depth] = Math.sign(counters[depth] ?? 0) === kind ? counters[depth]! + kind : kind;
    return `${'    '.repeat(depth)}${b.ordered ? `${counters[depth]}.` : '-'} ${b.text}`;
  }
  return b.text;
}

export function toMarkdown(pages: StructuredPage[]): string {
  const parts: string[] = [];
  for (const p of pages) {
    parts.push(`<!-- page ${p.page} -->`);
    let counters: number[] = [];
    let list: string[] = [];
    const flush = () => {
      if (list.length) parts.push(list.join('\n'));
      list = [];
    };
    for (const b of p.blocks) {
      if (b.type === 'list-item') {
        list.push(blockMarkdown(b, counters));
        continue;
      }
      flush();
      counters = [];
      parts.push(blockMarkdown(b, counters));
    }
    flush();
  }
  return parts.join('\n\n') + '\n';
}
