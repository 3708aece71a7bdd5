import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setLanguage } from '@/i18n';
import { issueMessage, wordedByCode } from '../issue-message';

const issuesOf = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  if (r.success) throw new Error('expected a problem');
  return r.error.issues;
};

describe('issueMessage: a zod issue worded from the catalogues by its code', () => {
  afterEach(() => setLanguage('en'));

  it('words bounds, types, formats and choices in English and in French, with no field prefix', () => {
    const cases: Array<[z.ZodType, unknown, string, string]> = [
      [
        z.string().max(200),
        'x'.repeat(201),
        'Must be at most 200 characters.',
        'Doit comporter au plus 200 caractères.',
      ],
      [z.string().min(3), 'ab', 'Must be at least 3 characters.', 'Doit comporter au moins 3 caractères.'],
      [z.number().max(1), 3, 'Must be at most 1.', 'Doit valoir au plus 1.'],
      [z.number().positive(), 0, 'Must be more than 0.', 'Doit être supérieur à 0.'],
      [z.number().multipleOf(5), 7, 'Must be a multiple of 5.', 'Doit être un multiple de 5.'],
      [z.array(z.string()).max(2), ['a', 'b', 'c'], 'Give at most 2.', 'Indiquez-en au plus 2.'],
      [z.email(), 'nope', 'Enter a valid e-mail address.', 'Saisissez une adresse e-mail valide.'],
      [z.enum(['90', '180']), '45', 'Choose one of: 90, 180.', 'Choisissez parmi : 90, 180.'],
      [z.number(), 'abc', 'Enter a number.', 'Saisissez un nombre.'],
    ];
    for (const [schema, value, en, fr] of cases) {
      const [issue] = issuesOf(schema, value);
      setLanguage('en');
      expect(issueMessage(issue!)).toBe(en);
      setLanguage('fr');
      expect(issueMessage(issue!)).toBe(fr);
    }
  });

  it('says a missing value is required, from a zod issue or from the API’s `missing` flag', () => {
    setLanguage('fr');
    const [issue] = issuesOf(z.object({ name: z.string() }), {});
    expect(issueMessage({ ...issue!, missing: true })).toBe('Ce champ est obligatoire.');
    expect(issueMessage({ code: 'invalid_type', missing: true, message: 'Invalid input' })).toBe(
      'Ce champ est obligatoire.',
    );
  });

  it("keeps the server's words for a rule the schema words itself, else the catalogue's general words", () => {
    const [pattern] = issuesOf(z.string().regex(/^#\d+$/, 'must be a colour'), 'red');
    expect(wordedByCode(pattern!)).toBe(false);
    setLanguage('fr');
    expect(issueMessage(pattern!, 'doit être une couleur comme #rgb ou #rrggbb')).toBe(
      'doit être une couleur comme #rgb ou #rrggbb',
    );
    expect(issueMessage(pattern!)).toBe("Cette valeur n'a pas la forme attendue.");
    const [custom] = issuesOf(
      z.string().refine(() => false, 'nope'),
      'x',
    );
    expect(issueMessage(custom!)).toBe("Cette valeur n'a pas la forme attendue.");
  });
});
