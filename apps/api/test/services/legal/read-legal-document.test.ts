import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLegalDocument } from '../../../src/services/legal/read-legal-document';

describe('readLegalDocument', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-legal-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('answers the neutral default, in the language asked, while DATA_DIR has no file', async () => {
    const en = await readLegalDocument(dir, 'terms', 'en');
    expect(en).toMatchObject({ document: 'terms', source: 'default', updatedAt: null });
    expect(en.html).toContain('<h1>Terms of Service</h1>');
    const fr = await readLegalDocument(dir, 'privacy', 'fr');
    expect(fr.html).toContain('<h1>Politique de confidentialité</h1>');
  });

  it("answers the operator's terms.md, rendered, with raw HTML escaped", async () => {
    writeFileSync(path.join(dir, 'terms.md'), '# Acme terms\n\nPay on time.\n\n<script>alert(1)</script>\n');
    const doc = await readLegalDocument(dir, 'terms', 'fr');
    expect(doc.source).toBe('operator');
    expect(doc.markdown).toContain('Pay on time.');
    expect(doc.html).toContain('<h1>Acme terms</h1>');
    expect(doc.html).not.toContain('<script>');
    expect(doc.html).toContain('&lt;script&gt;');
    expect(doc.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // The privacy policy is still the default: each document is its own file.
    expect((await readLegalDocument(dir, 'privacy', 'en')).source).toBe('default');
  });

  it('prefers <document>.<lang>.md, and skips an empty file', async () => {
    writeFileSync(path.join(dir, 'privacy.md'), '# Policy\n');
    writeFileSync(path.join(dir, 'privacy.fr.md'), '# Politique\n');
    expect((await readLegalDocument(dir, 'privacy', 'fr')).html).toContain('<h1>Politique</h1>');
    expect((await readLegalDocument(dir, 'privacy', 'en')).html).toContain('<h1>Policy</h1>');
    writeFileSync(path.join(dir, 'terms.md'), '  \n');
    expect((await readLegalDocument(dir, 'terms', 'en')).source).toBe('default');
  });
});
