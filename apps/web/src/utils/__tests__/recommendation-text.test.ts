import { afterEach, describe, expect, it } from 'vitest';
import type { TRecommendation } from '@docflow/contracts';
import { i18n, setLanguage } from '@/i18n';
import { recommendationText } from '../recommendation-text';

const slow: TRecommendation = {
  title: 'Slow responses',
  message: 'Your calls averaged 34334 ms. Smaller files, page ranges or asynchronous jobs keep responses fast.',
  priority: 'medium',
  code: 'slow-responses',
  params: { ms: 34334 },
};

afterEach(() => setLanguage('en'));

describe('recommendationText', () => {
  it("writes a coded recommendation in the reader's language, its numbers the reader's way", () => {
    setLanguage('en');
    expect(recommendationText(slow, i18n.t)).toEqual({
      title: 'Slow responses',
      message: 'Your calls averaged 34,334 ms. Smaller files, page ranges or asynchronous jobs keep responses fast.',
    });
    setLanguage('fr');
    const fr = recommendationText(slow, i18n.t);
    expect(fr.title).toBe('Réponses lentes');
    // fr-FR groups thousands with a narrow no-break space.
    expect(fr.message).toMatch(/^Vos appels ont duré 34\s334 ms en moyenne\./u);
    const quota = recommendationText(
      {
        title: 'Monthly quota almost used',
        message: 'x',
        priority: 'high',
        code: 'key-quota',
        params: { name: 'Prod', percent: 92.5, plan: 'Pro' },
      },
      i18n.t,
    );
    expect(quota.message).toContain('La clé « Prod » a utilisé 92,5 % de son quota mensuel Pro.');
  });

  it("keeps the server's words of a recommendation without a code", () => {
    setLanguage('fr');
    const old = { ...slow, code: undefined, params: undefined };
    expect(recommendationText(old, i18n.t)).toEqual({ title: old.title, message: old.message });
  });
});
