import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/lib/app-error';
import { assertStrongPassword, checkPasswordStrength } from '../../../src/services/password-strength';

describe('checkPasswordStrength', () => {
  it.each(['password', 'Password123!', 'P@ssw0rd', 'qwertyuiop12', 'Summer2024!', 'azerty123', '12345678', 'iloveyou'])(
    'rejects the common password %s',
    (pw) => {
      const v = checkPasswordStrength(pw);
      expect(v).toMatchObject({ isValid: false, score: 0, strength: 'very_weak' });
      expect(v.requirements.notCommon).toBe(false);
    },
  );

  it.each(['Kangaroo-Orbit-42', 'correct horse battery staple', 'Xk9#mQ2$vL', 'mot de passe très sûr', 'Elephant7'])(
    'accepts %s',
    (pw) => {
      const v = checkPasswordStrength(pw);
      expect(v.isValid).toBe(true);
      expect(v.score).toBeGreaterThanOrEqual(2);
    },
  );

  it('requires 8 characters and caps shorter ones at weak', () => {
    const v = checkPasswordStrength('Zq7#kP2');
    expect(v.requirements.minLength).toBe(false);
    expect(v.isValid).toBe(false);
    expect(v.score).toBeLessThanOrEqual(1);
    expect(v.feedback).toContain('Use at least 8 characters');
  });

  it('scores repeats, runs and repeated blocks low', () => {
    for (const pw of ['aaaaaaaaaaaa', 'abcdefghijkl', 'Aa1!Aa1!Aa1!', '987654321098']) {
      const v = checkPasswordStrength(pw);
      expect(v.isValid, pw).toBe(false);
      expect(v.score, pw).toBeLessThanOrEqual(1);
    }
  });

  it('refuses a password containing the e-mail local part or a name', () => {
    const ctx = { email: 'marie.curie@example.com', name: 'Marie Curie' };
    for (const pw of ['Curie-Radium-1898', 'xx-MARIE.CURIE-xx', 'Polonium+marie-7']) {
      const v = checkPasswordStrength(pw, ctx);
      expect(v.requirements.notPersonal, pw).toBe(false);
      expect(v.isValid, pw).toBe(false);
    }
    expect(checkPasswordStrength('Radium-Polonium-1898', ctx).isValid).toBe(true);
  });

  it('reports character classes without requiring them one by one', () => {
    const v = checkPasswordStrength('violet harbour seventy three');
    expect(v.requirements).toMatchObject({ lowercase: true, uppercase: false, number: false, special: true });
    expect(v.isValid).toBe(true);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(checkPasswordStrength('🐱🐶🐭🐹🐰🦊🐻').requirements.minLength).toBe(false);
  });

  it('assertStrongPassword throws WEAK_PASSWORD naming what is missing and the field', () => {
    expect(() => assertStrongPassword('Kangaroo-Orbit-42')).not.toThrow();
    let err: unknown;
    try {
      assertStrongPassword('short', {}, 'newPassword');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('WEAK_PASSWORD');
    expect((err as AppError).statusCode).toBe(422);
    expect((err as AppError).message).toMatch(/^Password is too weak: use at least 8 characters/);
    expect((err as AppError).details).toMatchObject({ fields: [{ field: 'newPassword' }] });
  });
});
