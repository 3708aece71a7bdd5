import { describe, expect, it } from 'vitest';
import { redactionHeader, type RedactionReport } from '../../src/core/operations/pdf/redact';
import { parseContent } from '../../src/core/operations/pdf/redact/content-lexer';
import { withoutTextEntries } from '../../src/core/operations/pdf/redact/marked-content';

/** The redaction's small parts on their own: the content tokenizer, the properties cleaner, the report header. */
describe('redaction parts', () => {
  it('tokenizes operands of every kind, keeps each operation as written, and an inline image whole', () => {
    const src = [
      'q 1 0 0 1 10.5 -.5 cm',
      'BT /F1 12 Tf [(A\\(b\\)\\101) -250 <0041 42>] TJ ET',
      '/Span <</ActualText (x) /MCID 3>> BDC EMC',
      'BI /W 2 /H 1 /CS /G /BPC 8 ID \x00EI\xff EI Q',
    ].join('\n');
    const ops = parseContent(Buffer.from(src, 'latin1'));
    expect(ops.map((o) => o.operator)).toEqual(['q', 'cm', 'BT', 'Tf', 'TJ', 'ET', 'BDC', 'EMC', 'BI', 'Q']);
    const tj = ops[4]!.operands[0]!;
    expect(tj.kind).toBe('array');
    const items = tj.kind === 'array' ? tj.items : [];
    expect(items[0]).toMatchObject({ kind: 'string' });
    expect(Buffer.from(items[0]!.kind === 'string' ? items[0]!.bytes : []).toString('latin1')).toBe('A(b)A');
    expect(items[1]).toEqual({ kind: 'number', value: -250 });
    expect(Buffer.from(items[2]!.kind === 'string' ? items[2]!.bytes : []).toString('hex')).toBe('004142');
    expect(ops[1]!.operands.map((o) => (o.kind === 'number' ? o.value : NaN))).toEqual([1, 0, 0, 1, 10.5, -0.5]);
    expect(ops[6]!.source).toBe('/Span <</ActualText (x) /MCID 3>> BDC');
    // The inline image's data holds "EI" not standing alone: the image ends at the EI that does.
    expect(ops[8]!.source).toBe('BI /W 2 /H 1 /CS /G /BPC 8 ID \x00EI\xff EI');
  });

  it('drops the text-carrying properties, nested parentheses and hex included, and keeps the rest', () => {
    const kept = withoutTextEntries('<< /ActualText (a (b) \\) c) /MCID 0 /Alt <4142> /E(x) >>');
    expect(kept?.replace(/\s+/g, ' ')).toBe('<< /MCID 0 >>');
    expect(withoutTextEntries('<< /ActualText (unterminated >>')).toBeNull();
  });

  it('the header keeps its totals whole and cuts the page list short when it would not fit', () => {
    const report: RedactionReport = {
      matches: 3000,
      pages: Array.from({ length: 1500 }, (_, k) => ({ page: k + 1, matches: 2, areas: 0 })),
      glyphs: 9000,
      imagesPainted: 0,
      imagesRemoved: 0,
      hiddenContent: 0,
      annotationsRemoved: 0,
    };
    const header = redactionHeader(report);
    expect(header.length).toBeLessThanOrEqual(8000);
    const parsed = JSON.parse(header) as RedactionReport & { pagesTruncated?: boolean };
    expect(parsed).toMatchObject({ matches: 3000, glyphs: 9000, pagesTruncated: true });
    expect(parsed.pages.length).toBeGreaterThan(50);
    expect(parsed.pages[0]).toEqual({ page: 1, matches: 2, areas: 0 });
    const small = { ...report, pages: report.pages.slice(0, 2) };
    expect(JSON.parse(redactionHeader(small))).toEqual(small);
  });
});
