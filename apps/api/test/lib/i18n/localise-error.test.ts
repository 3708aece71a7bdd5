import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/lib/app-error';
import { requestLanguage } from '../../../src/lib/i18n/language';
import { localiseError } from '../../../src/lib/i18n/localise-error';

describe('requestLanguage', () => {
  it('picks the best language we speak, by quality then order', () => {
    expect(requestLanguage('fr-CA,fr;q=0.9,en;q=0.8')).toBe('fr');
    expect(requestLanguage('de-DE,de;q=0.9,fr;q=0.5,en;q=0.7')).toBe('en');
    expect(requestLanguage('de, fr')).toBe('fr');
    expect(requestLanguage('fr;q=0, en')).toBe('en');
    expect(requestLanguage('ja')).toBe('en');
  });

  it('gives no language without the header: messages stay as written', () => {
    expect(requestLanguage(undefined)).toBeUndefined();
    expect(requestLanguage('')).toBeUndefined();
  });
});

describe('localiseError', () => {
  const validation = () =>
    new AppError('VALIDATION_ERROR', "email: L'email est requis", {
      details: {
        fields: [
          { field: 'email', message: "L'email est requis" },
          { field: 'name', message: 'Key name must be 3 to 100 characters' },
        ],
      },
    });

  it('translates each field message and the first one in the message, keeping codes and paths', () => {
    const en = localiseError(validation(), 'en');
    expect([en.code, en.statusCode, en.message]).toEqual(['VALIDATION_ERROR', 422, 'email: Email is required']);
    expect(en.details).toEqual({
      fields: [
        { field: 'email', message: 'Email is required' },
        { field: 'name', message: 'Key name must be 3 to 100 characters' },
      ],
    });
    const fr = localiseError(validation(), 'fr');
    expect(fr.message).toBe("email: L'email est requis");
    expect(fr.details).toEqual({
      fields: [
        { field: 'email', message: "L'email est requis" },
        { field: 'name', message: 'Le nom de la clé doit comporter de 3 à 100 caractères' },
      ],
    });
  });

  it('keeps the place prefix of a query validation error', () => {
    const err = new AppError('VALIDATION_ERROR', 'querystring name: Name is required', {
      details: { fields: [{ field: 'name', message: 'Name is required' }] },
    });
    expect(localiseError(err, 'fr').message).toBe('querystring name: Le nom est requis');
  });

  it('answers the account errors in the reader’s language', () => {
    const bad = new AppError('INVALID_CREDENTIALS', 'Email ou mot de passe incorrect');
    expect(localiseError(bad, 'en').message).toBe('Incorrect email or password');
    expect(localiseError(bad, 'fr').message).toBe('Email ou mot de passe incorrect');
    const self = new AppError('SELF_ACTION_FORBIDDEN', 'Vous ne pouvez pas supprimer votre propre compte');
    expect(localiseError(self, 'en').message).toBe('You cannot delete your own account');
    // A message the catalogue does not list: the code's general words for a French reader, the precise ones in English.
    const taken = new AppError('EMAIL_TAKEN', 'A user with the email a@b.c already exists');
    expect(localiseError(taken, 'fr').message).toBe('Cet email est déjà utilisé');
    expect(localiseError(taken, 'en').message).toBe('A user with the email a@b.c already exists');
  });

  it('gives a French reader the processing code’s message, the precise one kept in details', () => {
    const err = new AppError('INVALID_INPUT', 'dpi: at most 600', { details: { field: 'dpi' } });
    const fr = localiseError(err, 'fr');
    expect([fr.code, fr.statusCode, fr.message]).toEqual(['INVALID_INPUT', 422, 'Données invalides']);
    expect(fr.details).toEqual({ field: 'dpi', detail: 'dpi: at most 600' });
    expect(localiseError(new AppError('TIMEOUT', 'conversion: past 30 s'), 'fr').details).toEqual({
      detail: 'conversion: past 30 s',
    });
    // English readers keep the precise message as it is.
    expect(localiseError(err, 'en')).toBe(err);
  });
});
