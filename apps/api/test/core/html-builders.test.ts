import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { buildEpubHtml, chapterHtml, resolveHref } from '../../src/core/convert/epub';
import {
  buildMarkdownHtml,
  expandTemplate,
  markdownDocument,
  renderMarkdown,
  templateFiles,
} from '../../src/core/convert/markdown';
import { SafeZip, safeEntryName } from '../../src/core/convert/safe-zip';
import { buildTextHtml, decodeText, textToHtml } from '../../src/core/convert/text';
import { EngineError } from '../../src/core/errors';
import { testFolder } from '../fixtures/documents';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'html-builders-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function zipOf(files: Array<[string, string | Buffer]>, opts: { compress?: boolean } = {}): Promise<Buffer> {
  const z = new yazl.ZipFile();
  for (const [name, data] of files)
    z.addBuffer(Buffer.from(data), name, { compress: opts.compress ?? name !== 'mimetype' });
  z.end();
  const chunks: Buffer[] = [];
  for await (const c of z.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
  'base64',
);

function epubFiles(extra: Array<[string, string | Buffer]> = []): Array<[string, string | Buffer]> {
  return [
    ['mimetype', 'application/epub+zip'],
    [
      'META-INF/container.xml',
      `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    ],
    [
      'OEBPS/content.opf',
      `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>The Test &amp; Book</dc:title></metadata>
<manifest>
  <item id="c2" href="Text/ch2.xhtml" media-type="application/xhtml+xml"/>
  <item href="Text/ch1.xhtml" id="c1" media-type="application/xhtml+xml"/>
  <item id="notes" href="Text/notes.xhtml" media-type="application/xhtml+xml"/>
  <item id="css" href="Styles/book.css" media-type="text/css"/>
  <item id="img" href="Images/dot.png" media-type="image/png"/>
</manifest>
<spine><itemref idref="notes" linear="no"/><itemref idref="c1"/><itemref idref="c2"/></spine></package>`,
    ],
    [
      'OEBPS/Text/ch1.xhtml',
      `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>1</title><link rel="stylesheet" type="text/css" href="../Styles/book.css"/></head>
<body><h1 id="one">Chapter One</h1><a id="anchor"/><p>First words. <a href="ch2.xhtml#two">next</a></p><img src="../Images/dot.png" alt="dot"/><script>document.title='x'</script></body></html>`,
    ],
    [
      'OEBPS/Text/ch2.xhtml',
      `<html xmlns="http://www.w3.org/1999/xhtml"><head><style>p { color: #333 }</style></head><body><h1 id="two">Chapter Two</h1><p>Second words.</p></body></html>`,
    ],
    ['OEBPS/Text/notes.xhtml', `<html xmlns="http://www.w3.org/1999/xhtml"><body><p>End notes.</p></body></html>`],
    ['OEBPS/Styles/book.css', 'h1 { font-size: 20pt; } '],
    ['OEBPS/Images/dot.png', PNG],
    ...extra,
  ];
}

describe('markdown', () => {
  it('escapes raw HTML by default and lets it through only when asked', () => {
    const src = '# Title\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n';
    const safe = renderMarkdown(src);
    expect(safe).toContain('<h1>Title</h1>');
    expect(safe).not.toContain('<script>');
    expect(safe).toContain('&lt;script&gt;');
    expect(safe).not.toMatch(/<img/);
    expect(renderMarkdown(src, { html: true })).toContain('<script>alert(1)</script>');
  });

  it('renders tables, code and refuses javascript: links', () => {
    const html = renderMarkdown('| a | b |\n|---|--:|\n| 1 | 2 |\n\n```\ncode <x>\n```\n\n[x](javascript:alert(1))\n');
    expect(html).toContain('<table>');
    expect(html).toContain('style="text-align:right"');
    expect(html).toContain('code &lt;x&gt;');
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('[x](javascript:alert(1))');
  });

  it('wraps a document with a print stylesheet and an escaped title', () => {
    const doc = markdownDocument('hello', { title: '<T>' });
    expect(doc).toMatch(/^<!doctype html>/);
    expect(doc).toContain('<meta charset="utf-8">');
    expect(doc).toContain('<title>&lt;T&gt;</title>');
    expect(doc).toContain('<style>');
    expect(doc).toContain('<p>hello</p>');
  });

  it('expands Gotenberg templates, both placeholder forms', async () => {
    const t = '<div>{{ toHTML "a.md" }}</div><div>{{toHTML .DirPath "b.md"}}</div><div>{{ toHTML "a.md" }}</div>';
    expect(templateFiles(t)).toEqual(['a.md', 'b.md']);
    const out = await expandTemplate(t, async (n) => `# ${n}`);
    expect(out).toBe('<div><h1>a.md</h1>\n</div><div><h1>b.md</h1>\n</div><div><h1>a.md</h1>\n</div>');
  });

  it('builds the pages-3-markdown template from its sibling files', async () => {
    const out = await buildMarkdownHtml(path.join(await testFolder('pages-3-markdown'), 'index.html'), dir);
    expect(path.dirname(out)).toBe(dir);
    const html = await readFile(out, 'utf8');
    for (const n of [1, 2, 3]) expect(html).toContain(`<div class="page-break-after"><h1>Page ${n}</h1>\n</div>`);
    expect(html).not.toContain('toHTML');
  });

  it('builds the feature-rich-markdown table', async () => {
    const html = await readFile(
      await buildMarkdownHtml(path.join(await testFolder('feature-rich-markdown'), 'index.html'), dir),
      'utf8',
    );
    expect(html).toContain('<h2>A table written in Markdown</h2>');
    expect(html).toContain('<td style="text-align:center">centred</td>');
  });

  it('refuses template names that leave the directory or are missing', async () => {
    const t = path.join(dir, 'tpl');
    await rm(t, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(t));
    await writeFile(path.join(t, 'index.html'), '{{ toHTML "../../etc/passwd.md" }}');
    await expect(buildMarkdownHtml(path.join(t, 'index.html'), dir)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await writeFile(path.join(t, 'index.html'), '{{ toHTML "missing.md" }}');
    await expect(buildMarkdownHtml(path.join(t, 'index.html'), dir)).rejects.toThrow(/missing\.md/);
    await writeFile(path.join(t, 'index.html'), '{{ toHTML "/etc/hostname" }}');
    await expect(buildMarkdownHtml(path.join(t, 'index.html'), dir)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('builds a plain .md file', async () => {
    const f = path.join(dir, 'notes.md');
    await writeFile(f, '# Notes\n\n- one\n- two\n');
    const html = await readFile(await buildMarkdownHtml(f, dir), 'utf8');
    expect(html).toContain('<title>notes</title>');
    expect(html).toContain('<li>two</li>');
  });
});

describe('text', () => {
  it('escapes, keeps tabs and wraps, and turns form feeds into page breaks', () => {
    const html = textToHtml('a\t<b> & "c"\r\nline2\fpage2');
    expect(html).toContain('<pre>a\t&lt;b&gt; &amp; &quot;c&quot;\nline2</pre>\n<pre>page2</pre>');
    expect(html).toContain('white-space: pre-wrap');
    expect(html).toContain('tab-size: 8');
    expect(html).toContain('<meta charset="utf-8">');
  });

  it('decodes UTF-8 (with or without BOM), UTF-16 and falls back to Windows-1252', () => {
    expect(decodeText(Buffer.from('Grüße ✓'))).toBe('Grüße ✓');
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('ß')]))).toBe('ß');
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hé', 'utf16le')]))).toBe('hé');
    expect(decodeText(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x80]))).toBe('café€');
  });

  it('writes the document into the given directory', async () => {
    const f = path.join(dir, 'plain.txt');
    await writeFile(f, 'Hello <world>\n');
    const out = await buildTextHtml(f, dir);
    expect(path.dirname(out)).toBe(dir);
    expect(await readFile(out, 'utf8')).toContain('Hello &lt;world&gt;');
  });
});

describe('epub', () => {
  it('resolves hrefs inside the book only', () => {
    expect(resolveHref('OEBPS/Text/ch1.xhtml', '../Images/a%20b.png#x')).toBe('OEBPS/Images/a b.png');
    expect(resolveHref('OEBPS/content.opf', 'Text/ch1.xhtml')).toBe('OEBPS/Text/ch1.xhtml');
    expect(resolveHref('OEBPS/Text/ch1.xhtml', '../../../etc/passwd')).toBeNull();
    expect(resolveHref('a.xhtml', 'https://example.com/x.png')).toBeNull();
    expect(resolveHref('a.xhtml', 'file:///etc/passwd')).toBeNull();
  });

  it('expands XML self-closing tags, drops scripts and rewrites links', () => {
    const c = chapterHtml(
      '<html><body><a id="x"/><br/><p>t</p><script src="a.js"/><img src="../i.png"/><a href="c2.xhtml">n</a></body></html>',
      'T/c1.xhtml',
      new Map([['T/c2.xhtml', 'chapter-2']]),
    );
    expect(c.body).toBe('<a id="x"></a><br/><p>t</p><img src="i.png"/><a href="#chapter-2">n</a>');
  });

  it('builds one document in spine order with assets extracted beside it', async () => {
    const file = path.join(dir, 'book.epub');
    await writeFile(file, await zipOf(epubFiles([['OEBPS/Text/run.js', 'alert(1)']])));
    const out = await buildEpubHtml(file, dir);
    expect(path.dirname(path.dirname(out))).toBe(dir);
    const html = await readFile(out, 'utf8');
    expect(html).toContain('<title>The Test &amp; Book</title>');
    const [one = -1, two = -1, notes = -1] = ['Chapter One', 'Chapter Two', 'End notes.'].map((s) => html.indexOf(s));
    expect(one).toBeGreaterThan(0);
    expect(two).toBeGreaterThan(one);
    expect(notes).toBeGreaterThan(two);
    expect(html).toContain('<link rel="stylesheet" href="OEBPS/Styles/book.css">');
    expect(html).toContain('<img src="OEBPS/Images/dot.png" alt="dot"/>');
    expect(html).toContain('<a href="#two">next</a>');
    expect(html).toContain('break-before: page');
    expect(html).not.toContain('<script');
    const root = path.dirname(out);
    expect((await readFile(path.join(root, 'OEBPS/Images/dot.png'))).equals(PNG)).toBe(true);
    expect(await readdir(path.join(root, 'OEBPS'))).toEqual(expect.arrayContaining(['Images', 'Styles']));
    expect(await readdir(path.join(root, 'OEBPS/Text')).catch(() => [])).not.toContain('run.js');
  });

  it('refuses zip-slip entry names', async () => {
    expect(safeEntryName('../evil.css')).toBeNull();
    expect(safeEntryName('a/../../evil.css')).toBeNull();
    expect(safeEntryName('/etc/evil.css')).toBeNull();
    expect(safeEntryName('C:/evil.css')).toBeNull();
    expect(safeEntryName('..\\evil.css')).toBeNull();
    expect(safeEntryName('a//b/./c.css')).toBe('a/b/c.css');
    // yazl refuses to write such names: patch them into the archive (names are not covered by the CRC).
    const buf = await zipOf(epubFiles([['zz/zzzzzz/evil.css', 'x']]));
    const patched = Buffer.from(buf.toString('latin1').replaceAll('zz/zzzzzz/evil.css', '../../../evil.css'), 'latin1');
    const file = path.join(dir, 'slip.epub');
    await writeFile(file, patched);
    await expect(buildEpubHtml(file, dir)).rejects.toMatchObject({ code: 'INVALID_DOCUMENT' });
    await expect(readFile(path.join(dir, '..', 'evil.css'))).rejects.toThrow();
  });

  it('refuses zip bombs: too many entries, too large in total, sizes that lie', async () => {
    const file = path.join(dir, 'bomb.epub');
    const many = epubFiles(Array.from({ length: 30 }, (_, i) => [`OEBPS/f${i}.css`, 'x'] as [string, string]));
    await writeFile(file, await zipOf(many));
    await expect(
      buildEpubHtml(file, dir, { maxEntries: 20, maxEntryBytes: 1 << 20, maxTotalBytes: 1 << 20 }),
    ).rejects.toThrow(/more than 20 entries/);

    await writeFile(file, await zipOf(epubFiles([['OEBPS/Images/zeros.png', Buffer.alloc(4 << 20)]])));
    await expect(
      buildEpubHtml(file, dir, { maxEntries: 100, maxEntryBytes: 1 << 20, maxTotalBytes: 8 << 20 }),
    ).rejects.toThrow(/larger than 1 MB/);
    await expect(
      buildEpubHtml(file, dir, { maxEntries: 100, maxEntryBytes: 8 << 20, maxTotalBytes: 2 << 20 }),
    ).rejects.toThrow(/larger than 2 MB/);

    // A central directory that claims 1000 bytes for 4 MB of zeros: inflation stops at the claim.
    const z = await zipOf(epubFiles([['OEBPS/Images/zeros.png', Buffer.alloc(4 << 20)]]));
    const zip = await SafeZip.open((await writeFile(file, z), file));
    const entry = zip.find('OEBPS/Images/zeros.png')!;
    await zip.close();
    const cdAt = z.lastIndexOf(Buffer.from('OEBPS/Images/zeros.png')) - 46;
    expect(z.readUInt32LE(cdAt)).toBe(0x02014b50);
    z.writeUInt32LE(1000, cdAt + 24);
    await writeFile(file, z);
    const lying = await SafeZip.open(file);
    await expect(lying.read(lying.find(entry.name)!)).rejects.toThrow(/not the size it declares|larger than declared/);
    await lying.close();
  });

  it('answers INVALID_DOCUMENT for a zip that is not an EPUB and for non-zips', async () => {
    const file = path.join(dir, 'plain.epub');
    await writeFile(file, await zipOf([['readme.txt', 'hi']]));
    await expect(buildEpubHtml(file, dir)).rejects.toMatchObject({ code: 'INVALID_DOCUMENT' });
    await writeFile(file, 'not a zip at all');
    const err = await buildEpubHtml(file, dir).catch((e) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect(err.code).toBe('INVALID_DOCUMENT');
  });
});
