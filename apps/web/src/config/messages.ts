/**
 * Every user-facing text the specification gives verbatim (spec-1 sections 2, 4, 5, 8, 9 and spec-2 "Support page"),
 * in one module so a wording change happens in one place and tests can assert the exact strings.
 * Texts the specification does not give (our own wording) live beside the component that shows them.
 */
export const messages = {
  /** spec-1 §8: the global answers of the API client, by HTTP status. */
  http: {
    401: 'Session expirée. Veuillez vous reconnecter.',
    403: 'Accès interdit. Permissions insuffisantes.',
    404: 'Ressource non trouvée.',
    429: 'Limite de taux dépassée. Veuillez patienter.',
    500: 'Erreur serveur. Veuillez réessayer plus tard.',
    fallback: 'Une erreur est survenue.',
  },
  /** spec-1 §8 "Service-level fallbacks". */
  service: {
    registrationFailed: 'Registration failed',
    loginFailed: 'Login failed',
  },
  /** spec-1 §8 "Store fallback messages". */
  store: {
    connection: 'Erreur de connexion',
    changePassword: 'Erreur lors du changement de mot de passe',
    sendEmail: "Erreur lors de l'envoi de l'email",
    reset: 'Erreur lors de la réinitialisation',
    verification: 'Erreur lors de la vérification',
    send: "Erreur lors de l'envoi",
    sessions: 'Erreur lors de la récupération des sessions',
    revoke: 'Erreur lors de la révocation',
  },
  /** spec-1 §4 and §8 "Success toasts". */
  toast: {
    loginSuccess: 'Connexion réussie !',
    registerSuccess: 'Compte créé avec succès !',
    registerVerify: "Compte créé ! Vérifiez votre email pour l'activer.",
    logoutSuccess: 'Déconnexion réussie',
    passwordChanged: 'Mot de passe modifié avec succès',
    resetEmailSent: 'Email de réinitialisation envoyé',
    passwordReset: 'Mot de passe réinitialisé avec succès',
    emailVerified: 'Email vérifié avec succès',
    verificationResent: 'Email de vérification renvoyé',
    sessionRevoked: 'Session révoquée avec succès',
    sessionsRevoked: 'Sessions révoquées avec succès',
    allNotificationsRead: 'Toutes les notifications ont été marquées comme lues',
  },
  /** spec-1 §5 and §8 "Screen messages". */
  login: {
    failure: 'Email ou mot de passe incorrect',
  },
  register: {
    passwordsMismatch: 'Passwords do not match',
    acceptTerms: 'Please accept the terms and conditions',
    failure: 'Registration failed. Please try again.',
  },
  verify: {
    firstFailure: 'An error occurred during verification',
    retryFailure: 'Verification failed. Please try again.',
    missingToken:
      'The verification link is invalid or missing. Please check your email or request a new verification link.',
    missingTokenHint: 'Make sure to click the complete link received in your email.',
  },
  plans: {
    loading: 'Chargement des plans...',
    error: 'Erreur lors du chargement des plans',
  },
  /** spec-2 §8: the playground's answer when the call itself fails. */
  playground: {
    callFailed: "Erreur lors de l'appel à l'API",
  },
} as const;

/** spec-1 §9: business constants the web app uses. */
export const constants = {
  requestTimeoutMs: 10_000,
  defaultPageSize: 10,
  maxApiKeysPerUser: 5,
  storage: { authStore: 'auth-store', refreshToken: 'refresh_token' },
  trial: { days: 14, apiCalls: 1000 },
  verifyRedirectSeconds: 5,
  resendAnimationMs: 2000,
  scrollTopThresholdPx: 300,
  toastCap: 20,
} as const;
