import { describe, expect, it } from 'vitest';
import { playgroundEndpoints } from '../../config/endpoints';
import { frenchOf } from '../playground-text';

describe('playground form texts', () => {
  it('each hand-written endpoint and field text has its French (generated forms show the API reference’s words)', () => {
    const texts = playgroundEndpoints
      .filter((e) => !e.generated)
      .flatMap((e) => [
        e.name,
        e.description,
        ...(e.hint ? [e.hint] : []),
        ...e.fields.flatMap((f) => [f.label, f.description]),
      ]);
    expect(texts.filter((t) => frenchOf(t) === undefined)).toEqual([]);
  });

  it('gives the generated forms French names and labels, and French for their common help texts', () => {
    const generated = playgroundEndpoints.filter((e) => e.generated);
    expect(generated.length).toBeGreaterThan(0);
    const short = generated.flatMap((e) => [e.name, ...e.fields.map((f) => f.label)]);
    expect(short.filter((t) => frenchOf(t) === undefined)).toEqual([]);
    // A help text shared by several generated forms is translated; a form's own long help may stay in English.
    const counts = new Map<string, number>();
    for (const f of generated.flatMap((e) => e.fields))
      if (f.description) counts.set(f.description, (counts.get(f.description) ?? 0) + 1);
    const shared = [...counts].filter(([, n]) => n > 1).map(([t]) => t);
    expect(shared.length).toBeGreaterThan(10);
    expect(shared.filter((t) => frenchOf(t) === undefined)).toEqual([]);
    const rotate = generated.find((e) => e.id === '/pdf/rotate')!;
    expect(frenchOf(rotate.name)).toBe('Pivoter');
    expect(rotate.fields.map((f) => frenchOf(f.description))).toContain('Sens horaire : 90, 180 ou 270');
  });

  it('matches the texts built with a file count', () => {
    const merge = playgroundEndpoints.find((e) => e.id === '/pdf/merge')!;
    expect(frenchOf(merge.fields[0]!.description)).toMatch(/^Les PDF à fusionner, \d+ à \d+\.$/);
  });
});
