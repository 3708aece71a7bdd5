import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '@/i18n';
import { formatDuration } from '../format';
import { recommendationText } from '../recommendation-text';

const slow = {
  code: 'slow_responses',
  params: { avgResponseTimeMs: 34334 },
  title: 'Slow responses',
  message: 'Your calls averaged 34.3 s. Smaller files…',
  priority: 'medium',
} as const;

afterEach(() => setLanguage('en'));

describe('formatDuration', () => {
  it('gives milliseconds, seconds and minutes their units in English', () => {
    setLanguage('en');
    expect(formatDuration(850.2)).toBe('850 ms');
    expect(formatDuration(34334)).toBe('34.3 sec');
    expect(formatDuration(125_000)).toBe('2 min 5 sec');
  });
  it('writes French decimals and units', () => {
    setLanguage('fr');
    // French puts a narrow no-break space before the unit.
    expect(formatDuration(34334)).toMatch(/^34,3\ss$/u);
    expect(formatDuration(850)).toMatch(/^850\sms$/u);
  });
});

describe('recommendationText', () => {
  it('renders a coded recommendation in the interface language with a formatted duration', () => {
    setLanguage('en');
    expect(recommendationText(slow).message).toMatch(/^Your calls averaged 34\.3 sec\. /);
    setLanguage('fr');
    const fr = recommendationText(slow);
    expect(fr.title).toBe('Réponses lentes');
    expect(fr.message).toMatch(/^Vos appels ont duré 34,3\ss en moyenne\. /);
    expect(fr.message).not.toContain('34334');
  });
  it("keeps the server's text when there is no code", () => {
    setLanguage('fr');
    expect(recommendationText({ title: 'T', message: 'M', priority: 'low' })).toEqual({ title: 'T', message: 'M' });
  });
});
