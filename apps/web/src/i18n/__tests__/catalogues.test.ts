import { describe, expect, it } from 'vitest';
import { catalogues } from '@/i18n';

type Tree = { [k: string]: string | Tree };

function flatten(node: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(node)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

const variables = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('catalogues', () => {
  const en = flatten(catalogues.en as Tree);
  const fr = flatten(catalogues.fr as Tree);

  it('hold the same keys in English and French', () => {
    expect(
      [...en.keys()].filter((k) => !fr.has(k)),
      'keys missing from the French catalogue',
    ).toEqual([]);
    expect(
      [...fr.keys()].filter((k) => !en.has(k)),
      'keys missing from the English catalogue',
    ).toEqual([]);
  });

  it('have no empty text', () => {
    const empty = [...en, ...fr].filter(([, v]) => v.trim() === '').map(([k]) => k);
    expect(empty).toEqual([]);
  });

  it('give each text the same {{variables}} in both languages', () => {
    const differ = [...en].filter(([k, v]) => fr.has(k) && variables(v).join() !== variables(fr.get(k)!).join());
    expect(differ.map(([k]) => k)).toEqual([]);
  });

  it('keep the specification’s verbatim texts in their language', () => {
    expect(catalogues.fr.messages.http['401']).toBe('Session expirée. Veuillez vous reconnecter.');
    expect(catalogues.fr.messages.toast.loginSuccess).toBe('Connexion réussie !');
    expect(catalogues.en.messages.register.passwordsMismatch).toBe('Passwords do not match');
    expect(catalogues.en.messages.verify.missingTokenHint).toBe(
      'Make sure to click the complete link received in your email.',
    );
  });
});
