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
  { en: 'Give name, isActive or expiresAt', fr: 'Indiquez name, isActive ou expiresAt' },
  { en: 'Keys of this plan expire: choose a date', fr: 'Les clés de ce plan expirent : choisissez une date' },
  { en: 'The expiry date must be in the future', fr: "La date d'expiration doit être dans le futur" },
  {
    en: 'The expiry date is later than this key may stay valid',
    fr: "La date d'expiration dépasse la durée de validité permise pour cette clé",
  },
  // Field messages of the processing forms (packages/contracts pdf.ts, ocr.ts, qrcode.ts, forms.ts…).
  { en: 'must be a colour like #rgb or #rrggbb', fr: 'doit être une couleur comme #rgb ou #rrggbb' },
  {
    en: 'must be a colour like #rgb, #rrggbb or #rrggbbaa',
    fr: 'doit être une couleur comme #rgb, #rrggbb ou #rrggbbaa',
  },
  { en: 'must not contain line breaks', fr: 'ne doit pas contenir de saut de ligne' },
  { en: 'must not contain line breaks or tabs', fr: 'ne doit contenir ni saut de ligne ni tabulation' },
  { en: 'must be JSON', fr: 'doit être du JSON' },
  {
    en: 'must be "x,y,width,height" (four numbers, e.g. "36,36,523,770")',
    fr: 'doit être "x,y,largeur,hauteur" (quatre nombres, par ex. "36,36,523,770")',
  },
  {
    en: 'must be 1 or 3-13 (0 is orientation detection only, 2 is not implemented by tesseract)',
    fr: "doit valoir 1 ou 3 à 13 (0 ne détecte que l'orientation, 2 n'est pas pris en charge par tesseract)",
  },
  {
    en: 'must be a phone number: digits, optional leading +, spaces, dashes, dots or parentheses',
    fr: 'doit être un numéro de téléphone : chiffres, + initial facultatif, espaces, tirets, points ou parenthèses',
  },
  {
    en: 'must be an absolute URL such as https://example.com/page',
    fr: 'doit être une URL absolue comme https://example.com/page',
  },
  {
    en: 'must be language codes joined by "+", e.g. "eng" or "eng+fra" (at most 8)',
    fr: 'doit être des codes de langue joints par "+", par ex. "eng" ou "eng+fra" (8 au plus)',
  },
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
  // The answers of the account routes (routes/v1/auth), given in the caller's language (plugins/answer-language.ts).
  {
    en: 'Check your email: we sent you a link to activate your account.',
    fr: 'Vérifiez votre boîte mail : nous vous avons envoyé un lien pour activer votre compte.',
  },
  { en: 'Account created.', fr: 'Compte créé.' },
  { en: 'Email verified.', fr: 'Email vérifié.' },
  {
    en: 'If an unverified account exists for this address, a new verification email is on its way.',
    fr: 'Si un compte non vérifié existe pour cette adresse, un nouvel email de vérification est en route.',
  },
  {
    en: 'If an account exists for this address, a password-reset email is on its way.',
    fr: 'Si un compte existe pour cette adresse, un email de réinitialisation du mot de passe est en route.',
  },
  { en: 'Password reset.', fr: 'Mot de passe réinitialisé.' },
  {
    en: 'Password changed. Your other sessions have been signed out.',
    fr: 'Mot de passe modifié. Vos autres sessions ont été déconnectées.',
  },
  { en: 'Signed in.', fr: 'Connecté.' },
  { en: 'Signed out.', fr: 'Déconnecté.' },
  { en: 'Profile updated.', fr: 'Profil mis à jour.' },
  { en: 'Session revoked.', fr: 'Session révoquée.' },
  { en: 'Other sessions revoked.', fr: 'Autres sessions révoquées.' },
  { en: 'API key created successfully!', fr: 'Clé API créée avec succès !' },
  { en: 'API key updated successfully!', fr: 'Clé API mise à jour avec succès !' },
  { en: 'API key deleted successfully!', fr: 'Clé API supprimée avec succès !' },
  // Plan requests and support messages (services/customer-requests, contracts requests.ts).
  { en: 'Plan request not found', fr: 'Demande de plan introuvable' },
  { en: 'Support message not found', fr: 'Message au support introuvable' },
  { en: 'This request was decided meanwhile', fr: 'Cette demande a été traitée entre-temps' },
  { en: 'This message is handled already', fr: 'Ce message est déjà traité' },
  {
    en: 'You have 10 messages waiting for an answer: wait for one before sending another',
    fr: 'Vous avez 10 messages en attente de réponse : attendez-en une avant d’en envoyer un autre',
  },
  { en: 'The subject must be 3 to 200 characters', fr: "L'objet doit comporter de 3 à 200 caractères" },
  { en: 'The message must be 10 to 5000 characters', fr: 'Le message doit comporter de 10 à 5000 caractères' },
  { en: 'The message must be at most 2000 characters', fr: 'Le message doit comporter au plus 2000 caractères' },
  {
    en: 'A note is required: it tells the customer why',
    fr: 'Une note est requise : elle explique la raison au client',
  },
];

const byText = new Map<string, Readonly<Record<TApiLanguage, string>>>();
for (const t of texts) {
  byText.set(t.en, t);
  byText.set(t.fr, t);
}

/**
 * The errors of processing calls, jobs and webhooks (contracts error-codes) a dashboard user meets in the playground
 * and on the Jobs page. Their English messages name the value at fault (a page count, a file name) and are not
 * listed one by one: a French reader gets the code's message, and the precise one stays in `details.detail`.
 */
const processingMessages: Partial<Record<TErrorCode, Readonly<Record<TApiLanguage, string>>>> = {
  BAD_REQUEST: { en: 'Bad request', fr: 'Requête incorrecte' },
  INVALID_JSON: { en: 'The request body is not valid JSON', fr: "Le corps de la requête n'est pas du JSON valide" },
  INVALID_MULTIPART: {
    en: 'The multipart form could not be read',
    fr: 'Le formulaire multipart est illisible',
  },
  INVALID_API_KEY: { en: 'Invalid API key', fr: 'Clé API invalide' },
  API_KEY_REQUIRED: {
    en: 'An API key is required (x-api-key header)',
    fr: 'Une clé API est requise (en-tête x-api-key)',
  },
  PAYMENT_REQUIRED: { en: 'This needs a paid plan', fr: 'Cette fonction demande un plan payant' },
  PLAN_EXPIRED: { en: 'Your plan has expired', fr: 'Votre plan a expiré' },
  ENDPOINT_NOT_ALLOWED: {
    en: "This endpoint is not included in the key's plan",
    fr: "Cet endpoint n'est pas inclus dans le plan de la clé",
  },
  URL_NOT_ALLOWED: { en: 'This address may not be fetched', fr: 'Cette adresse ne peut pas être récupérée' },
  JOB_NOT_FOUND: { en: 'Job not found', fr: 'Job introuvable' },
  ROUTE_NOT_FOUND: { en: 'Route not found', fr: 'Route introuvable' },
  CONFLICT: { en: 'Conflict with the current state', fr: "Conflit avec l'état actuel" },
  TRIAL_ALREADY_USED: { en: 'The trial has already been used', fr: "L'essai a déjà été utilisé" },
  JOB_NOT_FINISHED: {
    en: 'The job has not finished yet: read its status first',
    fr: "Le job n'est pas encore terminé : consultez d'abord son statut",
  },
  PAYLOAD_TOO_LARGE: { en: 'The request is too large', fr: 'La requête est trop volumineuse' },
  FILE_TOO_LARGE: {
    en: "The file is larger than the plan's limit",
    fr: 'Le fichier dépasse la taille permise par le plan',
  },
  UNSUPPORTED_MEDIA_TYPE: { en: 'Unsupported content type', fr: 'Type de contenu non pris en charge' },
  UNSUPPORTED_FORMAT: { en: 'Unsupported file format', fr: 'Format de fichier non pris en charge' },
  INVALID_INPUT: { en: 'Invalid input', fr: 'Données invalides' },
  INVALID_PDF: { en: 'The file is not a valid PDF', fr: "Le fichier n'est pas un PDF valide" },
  INVALID_DOCUMENT: { en: 'The document could not be read', fr: 'Le document est illisible' },
  PASSWORD_REQUIRED: { en: 'The PDF is protected by a password', fr: 'Le PDF est protégé par un mot de passe' },
  WRONG_PASSWORD: { en: 'The password of the PDF is wrong', fr: 'Le mot de passe du PDF est incorrect' },
  PAGE_LIMIT_EXCEEDED: {
    en: 'The document has more pages than the plan allows',
    fr: 'Le document a plus de pages que le plan ne le permet',
  },
  PDF_CONTENT_TOO_LARGE: {
    en: 'The pages of the PDF hold more content than the server reads',
    fr: 'Les pages du PDF contiennent plus de contenu que le serveur ne lit',
  },
  ALL_PAGES_BLANK: {
    en: 'Every page is blank: no document would be left',
    fr: 'Toutes les pages sont blanches : il ne resterait aucun document',
  },
  NO_FORM_FIELDS: { en: 'The PDF has no form fields', fr: "Le PDF n'a aucun champ de formulaire" },
  DOCUMENT_TOO_COMPLEX: {
    en: 'The document needs more time or memory than one conversion may take',
    fr: "Le document demande plus de temps ou de mémoire qu'une conversion ne peut en prendre",
  },
  CERTIFICATE_PASSWORD_WRONG: {
    en: 'The certificate does not open with this password',
    fr: "Le certificat ne s'ouvre pas avec ce mot de passe",
  },
  INVALID_CERTIFICATE: {
    en: 'The file is not a PKCS#12 certificate with its private key',
    fr: "Le fichier n'est pas un certificat PKCS#12 avec sa clé privée",
  },
  CERTIFICATE_EXPIRED: {
    en: 'The certificate is expired or not valid yet',
    fr: 'Le certificat est expiré ou pas encore valide',
  },
  CERTIFICATE_LIMIT_REACHED: {
    en: 'You store the most signing certificates allowed: delete one first',
    fr: 'Vous gardez le nombre maximal de certificats de signature : supprimez-en un d’abord',
  },
  CERTIFICATE_NOT_FOUND: {
    en: 'No signing certificate of this id is stored for your account',
    fr: 'Aucun certificat de signature de cet identifiant n’est enregistré pour votre compte',
  },
  WEBHOOK_SIGNATURE_INVALID: {
    en: 'The webhook signature does not match',
    fr: 'La signature du webhook ne correspond pas',
  },
  PLAN_NOT_FOR_SALE: { en: 'This plan cannot be bought', fr: 'Ce plan ne peut pas être acheté' },
  BILLING_NOT_CONFIGURED: {
    en: 'Payments are not set up on this server',
    fr: 'Les paiements ne sont pas configurés sur ce serveur',
  },
  BILLING_SUBSCRIPTION_EXISTS: {
    en: 'You already have a subscription: change it from Manage billing',
    fr: 'Vous avez déjà un abonnement : modifiez-le depuis Gérer la facturation',
  },
  BILLING_ACCOUNT_MISSING: {
    en: 'You have no billing account yet',
    fr: 'Vous n’avez pas encore de compte de facturation',
  },
  BILLING_SUBSCRIPTION_MISSING: {
    en: 'You have no current subscription to change or cancel',
    fr: 'Vous n’avez pas d’abonnement en cours à modifier ou résilier',
  },
  BILLING_PROVIDER_FAILED: {
    en: 'The payment provider did not answer: retry shortly',
    fr: 'Le prestataire de paiement n’a pas répondu : réessayez sous peu',
  },
  KEY_LIMIT_REACHED: {
    en: 'You have reached the number of API keys of your plan',
    fr: 'Vous avez atteint le nombre de clés API de votre plan',
  },
  PLAN_NOT_OWNED: { en: 'You do not have this plan', fr: "Vous n'avez pas ce plan" },
  QUOTA_EXCEEDED: { en: 'Quota exceeded', fr: 'Quota dépassé' },
  WEBHOOK_RESEND_LIMITED: {
    en: 'The webhook was resent too often: retry later',
    fr: 'Le webhook a été renvoyé trop souvent : réessayez plus tard',
  },
  INTERNAL_ERROR: { en: 'Internal server error', fr: 'Erreur interne du serveur' },
  ENGINE_FAILED: { en: 'The processing engine failed', fr: 'Le moteur de traitement a échoué' },
  TSA_UNAVAILABLE: {
    en: 'The time-stamp authority did not answer',
    fr: "L'autorité d'horodatage n'a pas répondu",
  },
  SERVICE_UNAVAILABLE: { en: 'Service unavailable', fr: 'Service indisponible' },
  QUEUE_FULL: { en: 'The server is busy: retry shortly', fr: 'Le serveur est occupé : réessayez sous peu' },
  MAINTENANCE: { en: 'Maintenance in progress', fr: 'Maintenance en cours' },
  TIMEOUT: { en: 'The processing took too long', fr: 'Le traitement a pris trop de temps' },
  JOB_INTERRUPTED: {
    en: 'The job was interrupted too many times',
    fr: 'Le job a été interrompu trop de fois',
  },
};

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
  ...processingMessages,
};

/** A processing code whose precise message, replaced by the code's for a French reader, is kept in details. */
export const keepsPreciseMessage = (code: TErrorCode): boolean => code in processingMessages;

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
