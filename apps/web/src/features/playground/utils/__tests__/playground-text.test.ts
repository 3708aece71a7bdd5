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

  it('matches the texts built with a file count', () => {
    const merge = playgroundEndpoints.find((e) => e.id === '/pdf/merge')!;
    expect(frenchOf(merge.fields[0]!.description)).toMatch(/^Les PDF à fusionner, \d+ à \d+\.$/);
  });
});
