import { describe, expect, it } from 'vitest';
import {
  accountExistsMail,
  mailLanguage,
  passwordResetMail,
  verificationMail,
} from '../../../src/services/accounts/mails';

describe('account mails speak the user’s language', () => {
  it('reads the profile language: French for fr and fr-*, English otherwise', () => {
    expect([mailLanguage('fr'), mailLanguage('fr-CA'), mailLanguage('de'), mailLanguage(null)]).toEqual([
      'fr',
      'fr',
      'en',
      'en',
    ]);
  });

  it('writes each mail in French or English, subject, text and HTML alike', () => {
    const link = 'https://docflow.test/verify-email?token=abc';
    const fr = verificationMail('ada@example.com', 'Ada', link, 'fr');
    expect(fr.subject).toBe('Vérifiez votre adresse e-mail DocFlow');
    expect(fr.text).toMatch(/^Bonjour Ada,/);
    expect(fr.html).toContain('<html lang="fr">');
    expect(fr.html).toContain('Vérifier mon e-mail');
    expect(fr.text).toContain(link);
    const en = verificationMail('ada@example.com', 'Ada', link);
    expect(en.subject).toBe('Verify your DocFlow e-mail address');
    expect(en.text).toMatch(/^Hello Ada,/);
    expect(passwordResetMail('a@b.c', 'A', link, 'fr').subject).toBe('Réinitialisez votre mot de passe DocFlow');
    expect(accountExistsMail('a@b.c', 'A', link, 'fr').subject).toBe('Vous avez déjà un compte DocFlow');
  });
});
