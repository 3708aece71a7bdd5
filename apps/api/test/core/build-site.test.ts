import { readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/core/operations/convert/build-site';
import { EngineError } from '../../src/core/errors';
import { createWorkspace, type Workspace } from '../../src/core/workspace';

/**
 * The one site builder behind the conversion endpoints, Gotenberg's Chromium routes and detected conversions: what it
 * lays out and writes is read back from the workspace (the renders themselves are the doors' tests).
 */
const workspaces: Workspace[] = [];
afterEach(async () => {
  await Promise.all(workspaces.splice(0).map((w) => w.dispose()));
});

async function upload(ws: Workspace, filename: string, content: string) {
  const p = ws.file(`upload-${filename}`);
  await writeFile(p, content);
  return { path: p, filename, size: Buffer.byteLength(content) };
}

async function workspace() {
  const ws = await createWorkspace(os.tmpdir(), null);
  workspaces.push(ws);
  return ws;
}

describe('buildSite', () => {
  it('an HTML page and its assets in a directory of their own, under their names', async () => {
    const ws = await workspace();
    const page = await upload(ws, 'report.html', '<!doctype html><p>Hi <img src="logo.svg"></p>');
    const logo = await upload(ws, 'logo.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const site = await buildSite(ws, { page: { file: page }, assets: [logo] });
    expect(site.html).toBe(path.join(site.dir, 'index.html'));
    expect((await readdir(site.dir)).sort()).toEqual(['index.html', 'logo.svg']);
    expect(await readFile(site.html, 'utf8')).toContain('Hi <img src="logo.svg">');
  });

  it('HTML text as the page; two assets of one name refused', async () => {
    const ws = await workspace();
    const site = await buildSite(ws, { page: { html: '<p>text</p>' }, assets: [] });
    expect(await readFile(site.html, 'utf8')).toBe('<p>text</p>');
    const a = await upload(ws, 'a.css', 'p{}');
    const b = await upload(ws, 'a.css', 'b{}');
    await expect(buildSite(ws, { page: { html: '' }, assets: [a, b] })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: 'assets: two files are named "a.css"',
    });
  });

  it('Markdown without a template: each file rendered, one after the other', async () => {
    const ws = await workspace();
    const one = await upload(ws, 'one.md', '# First');
    const two = await upload(ws, 'two.md', '*second*');
    const site = await buildSite(ws, { assets: [one, two], markdown: true });
    const html = await readFile(site.html, 'utf8');
    expect(html).toMatch(/<h1>First<\/h1>[\s\S]*<em>second<\/em>/);
    expect(path.dirname(site.html)).toBe(site.dir);
  });

  it('a Markdown template: its placeholders filled; the files it names but were not sent told by the door', async () => {
    const ws = await workspace();
    const template = await upload(ws, 'index.html', '<main>{{ toHTML "a.md" }}</main>');
    const a = await upload(ws, 'a.md', '**bold**');
    const site = await buildSite(ws, { page: { file: template }, assets: [a], markdown: true });
    expect(await readFile(site.html, 'utf8')).toContain('<main><p><strong>bold</strong></p>\n</main>');
    const missing = await upload(ws, 'index.html', '{{ toHTML "a.md" }}{{ toHTML "b.md" }}');
    await expect(
      buildSite(ws, {
        page: { file: missing },
        assets: [a],
        markdown: true,
        missing: (names) => new Error(`missing: ${names.join(',')}`),
      }),
    ).rejects.toThrow('missing: b.md');
  });

  it('uploads are checked in the words of the door, unless already checked', async () => {
    const ws = await workspace();
    const empty = await upload(ws, 'index.html', '');
    const err = await buildSite(ws, { page: { file: empty }, assets: [], label: () => "'index.html'" }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).message).toBe("'index.html' is empty (0 bytes)");
    const pdf = await upload(ws, 'notes.md', '%PDF-1.7\n%âãÏÓ\n1 0 obj<<>>endobj\n');
    await expect(buildSite(ws, { assets: [pdf], markdown: true })).rejects.toMatchObject({
      code: 'UNSUPPORTED_FORMAT',
    });
    const site = await buildSite(ws, { page: { file: empty }, assets: [], checked: true });
    expect(await readFile(site.html, 'utf8')).toBe('');
  });
});
