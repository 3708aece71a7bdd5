import type { TErrorCode } from '@docflow/contracts';
import type { TApiLanguage } from './language';

/**
 * The server's small catalogue. Messages are written once, in English or French (the specification gives some in
 * French, verbatim); each known one is listed here with its other language, so an answer can be given in the
 * caller's. A message not listed keeps its words: machine codes and field paths never change.
 */
const texts: ReadonlyArray<Readonly<Record<TApiLanguage, string>>> = [
  // Field messages of the account and key forms (packages/contracts auth.ts, keys.ts, admin/users.ts).
  { en: 'Email is required', fr: "L'email est requis" },
  { en: 'The email must be at most 255 characters', fr: "L'email ne peut pas dépasser 255 caractères" },
  { en: 'Invalid email format', fr: "Format d'email invalide" },
  { en: 'Name is required', fr: 'Le nom est requis' },
  { en: 'The name must be 2 to 100 characters', fr: 'Le nom doit contenir entre 2 et 100 caractères' },
  { en: 'Name must be at least 2 characters', fr: 'Le nom doit comporter au moins 2 caractères' },
  { en: 'Name must be at most 100 characters', fr: 'Le nom doit comporter au plus 100 caractères' },
  { en: 'Invalid role', fr: 'Rôle invalide' },
  { en: 'Nothing to change', fr: 'Rien à modifier' },
  { en: 'Password is required', fr: 'Le mot de passe est requis' },
  { en: 'Password must be at most 128 characters', fr: 'Le mot de passe doit comporter au plus 128 caractères' },
  { en: 'Company must be at most 200 characters', fr: "Le nom de l'entreprise doit comporter au plus 200 caractères" },
  { en: 'Country must be at most 100 characters', fr: 'Le pays doit comporter au plus 100 caractères' },
  { en: 'Please confirm your password', fr: 'Veuillez confirmer votre mot de passe' },
  { en: 'Please accept the terms and conditions', fr: "Veuillez accepter les conditions d'utilisation" },
  { en: 'Passwords do not match', fr: 'Les mots de passe ne correspondent pas' },
  { en: 'The verification token is required', fr: 'Le jeton de vérification est requis' },
  { en: 'The reset token is required', fr: 'Le jeton de réinitialisation est requis' },
  { en: 'Current password is required', fr: 'Le mot de passe actuel est requis' },
  {
    en: 'Unknown time zone: use an IANA name such as Europe/Paris',
    fr: 'Fuseau horaire inconnu : utilisez un nom IANA comme Europe/Paris',
  },
  {
    en: 'Language must be a language tag such as fr or en-US',
    fr: 'La langue doit être une étiquette de langue comme fr ou en-US',
  },
  { en: 'Key name must be 3 to 100 characters', fr: 'Le nom de la clé doit comporter de 3 à 100 caractères' },
  {
    en: 'Key name may contain only letters, digits, spaces, hyphens and underscores',
    fr: 'Le nom de la clé ne peut contenir que des lettres, des chiffres, des espaces, des tirets et des tirets bas',
  },
  { en: 'Give name or isActive', fr: 'Indiquez name ou isActive' },
  // Account errors (services/accounts, services/admin).
  { en: 'Incorrect email or password', fr: 'Email ou mot de passe incorrect' },
  { en: 'Current password is incorrect', fr: 'Le mot de passe actuel est incorrect' },
  { en: 'User not found', fr: 'Utilisateur introuvable' },
  { en: 'Custom API key not found', fr: 'Clé API personnalisée introuvable' },
  { en: 'API key not found', fr: 'Clé API introuvable' },
  { en: 'This user is deactivated: reactivate them first', fr: 'Cet utilisateur est désactivé : réactivez-le d’abord' },
  { en: 'You cannot deactivate your own account', fr: 'Vous ne pouvez pas désactiver votre propre compte' },
  { en: 'You cannot delete your own account', fr: 'Vous ne pouvez pas supprimer votre propre compte' },
  { en: 'You cannot change your own role', fr: 'Vous ne pouvez pas changer votre propre rôle' },
  {
    en: 'You cannot change your own plan through the administration',
    fr: 'Vous ne pouvez pas changer votre propre plan par l’administration',
  },
  {
    en: 'You cannot create or change a custom key for yourself through the administration',
    fr: 'Vous ne pouvez pas vous créer ni modifier une clé personnalisée par l’administration',
  },
  { en: 'Maintenance in progress', fr: 'Maintenance en cours' },
  { en: 'This account has been deactivated', fr: 'Ce compte a été désactivé' },
  {
    en: 'This account has been deactivated. Contact support if you think this is a mistake.',
    fr: "Ce compte a été désactivé. Contactez le support si vous pensez qu'il s'agit d'une erreur.",
  },
  {
    en: 'Please verify your email address before signing in: click the link we sent you, or ask for a new one.',
    fr: 'Veuillez vérifier votre adresse email avant de vous connecter : cliquez sur le lien envoyé, ou demandez-en un nouveau.',
  },
  {
    en: 'An account with this email already exists. Sign in instead, or reset your password.',
    fr: 'Un compte existe déjà avec cet email. Connectez-vous, ou réinitialisez votre mot de passe.',
  },
  { en: 'This account no longer exists', fr: "Ce compte n'existe plus" },
  { en: 'Authentication required', fr: 'Authentification requise' },
  {
    en: 'A verification email was just sent to this address: wait before asking again',
    fr: "Un email de vérification vient d'être envoyé à cette adresse : patientez avant d'en redemander un",
  },
  { en: 'Access token expired', fr: "Le jeton d'accès a expiré" },
  { en: 'Invalid access token', fr: "Jeton d'accès invalide" },
  { en: 'Session expired or revoked', fr: 'Session expirée ou révoquée' },
  {
    en: 'This password-reset link is invalid or has been replaced by a newer one. Request a new one.',
    fr: 'Ce lien de réinitialisation est invalide ou a été remplacé par un plus récent. Demandez-en un nouveau.',
  },
  {
    en: 'This password-reset link has already been used. Request a new one if you still need it.',
    fr: 'Ce lien de réinitialisation a déjà été utilisé. Demandez-en un nouveau si besoin.',
  },
  {
    en: 'This password-reset link has expired (links are valid for 1 hour). Request a new one.',
    fr: 'Ce lien de réinitialisation a expiré (les liens sont valables 1 heure). Demandez-en un nouveau.',
  },
  {
    en: 'This verification link is invalid or has been replaced by a newer one. Request a new verification email.',
    fr: 'Ce lien de vérification est invalide ou a été remplacé par un plus récent. Demandez un nouvel email de vérification.',
  },
  {
    en: 'This verification link has already been used. Sign in, or request a new verification email.',
    fr: 'Ce lien de vérification a déjà été utilisé. Connectez-vous, ou demandez un nouvel email de vérification.',
  },
  {
    en: 'This verification link has expired (links are valid for 24 hours). Request a new verification email.',
    fr: 'Ce lien de vérification a expiré (les liens sont valables 24 heures). Demandez un nouvel email de vérification.',
  },
  { en: 'Invalid request', fr: 'Requête invalide' },
  { en: 'Invalid value', fr: 'Valeur invalide' },
  { en: 'The request body is not valid JSON', fr: "Le corps de la requête n'est pas du JSON valide" },
  { en: 'The request body is too large', fr: 'Le corps de la requête est trop volumineux' },
  { en: 'Internal server error', fr: 'Erreur interne du serveur' },
];

const byText = new Map<string, Readonly<Record<TApiLanguage, string>>>();
for (const t of texts) {
  byText.set(t.en, t);
  byText.set(t.fr, t);
}

/**
 * When a message is not listed (it names a value, a file…), a French caller still reads French for the errors of
 * accounts and sessions: the code's general message. Other codes keep their precise English message.
 */
const byCode: Partial<Record<TErrorCode, Readonly<Record<TApiLanguage, string>>>> = {
  VALIDATION_ERROR: { en: 'Invalid request', fr: 'Requête invalide' },
  UNAUTHORIZED: { en: 'Authentication required', fr: 'Authentification requise' },
  INVALID_CREDENTIALS: { en: 'Incorrect email or password', fr: 'Email ou mot de passe incorrect' },
  INVALID_TOKEN: { en: 'Invalid or expired session', fr: 'Session invalide ou expirée' },
  TOKEN_EXPIRED: { en: 'Access token expired', fr: "Le jeton d'accès a expiré" },
  FORBIDDEN: { en: 'Access denied', fr: 'Accès refusé' },
  EMAIL_NOT_VERIFIED: { en: 'Email address not verified', fr: 'Adresse email non vérifiée' },
  ACCOUNT_DISABLED: { en: 'This account has been deactivated', fr: 'Ce compte a été désactivé' },
  INSUFFICIENT_ROLE: { en: 'Insufficient permissions', fr: 'Permissions insuffisantes' },
  SELF_ACTION_FORBIDDEN: {
    en: 'You cannot do this on your own account',
    fr: 'Action impossible sur votre propre compte',
  },
  PASSWORD_CHANGE_REQUIRED: {
    en: 'Choose a new password to continue',
    fr: 'Choisissez un nouveau mot de passe pour continuer',
  },
  EMAIL_TAKEN: { en: 'This email is already used', fr: 'Cet email est déjà utilisé' },
  WEAK_PASSWORD: { en: 'The password is too weak', fr: 'Le mot de passe est trop faible' },
  INVALID_LINK: { en: 'This link is invalid', fr: 'Ce lien est invalide' },
  LINK_EXPIRED: { en: 'This link has expired', fr: 'Ce lien a expiré' },
  NOT_FOUND: { en: 'Resource not found', fr: 'Ressource non trouvée' },
  RATE_LIMIT_EXCEEDED: { en: 'Rate limit exceeded. Please wait.', fr: 'Limite de taux dépassée. Veuillez patienter.' },
  TOO_MANY_ATTEMPTS: { en: 'Too many attempts. Please wait.', fr: 'Trop de tentatives. Veuillez patienter.' },
};

/** A listed message in `lang`; undefined when the message is not in the catalogue. */
export function translateText(message: string, lang: TApiLanguage): string | undefined {
  return byText.get(message)?.[lang];
}

/** A message for a person reading `lang`: listed → translated; else the code's general message for French readers. */
export function humanMessage(code: TErrorCode, message: string, lang: TApiLanguage): string {
  const listed = translateText(message, lang);
  if (listed) return listed;
  if (lang === 'en') return message;
  return byCode[code]?.fr ?? message;
}
