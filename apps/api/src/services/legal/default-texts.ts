import type { TLegalDocumentName } from '@docflow/contracts';

/**
 * The neutral texts shown until the operator puts their own in DATA_DIR (terms.md, privacy.md): they state what the
 * software does, promise nothing the operator did not decide, and say who to ask.
 */
export const defaultLegalTexts: Record<TLegalDocumentName, Record<'en' | 'fr', string>> = {
  terms: {
    en: `# Terms of Service

These terms have not been written by the operator of this service yet. Until they are, the following applies.

- The service converts, edits and reads documents that you send to it through its API, with an API key of your account.
- Use it only for documents you have the right to process, and keep your API keys secret: calls made with your keys
  are counted on your account.
- Each plan's limits (requests per month, per hour and per minute, file size, pages) are those shown on the Plans page;
  calls over a limit are refused and not counted.
- The operator may suspend an account that breaks these terms or endangers the service.

For any question about these terms, contact the operator of this service through the Support page.
`,
    fr: `# Conditions d'utilisation

L'opérateur de ce service n'a pas encore rédigé ses conditions. D'ici là, ce qui suit s'applique.

- Le service convertit, modifie et lit les documents que vous lui envoyez par son API, avec une clé API de votre compte.
- Ne l'utilisez que pour des documents que vous avez le droit de traiter, et gardez vos clés API secrètes : les appels
  faits avec vos clés sont décomptés sur votre compte.
- Les limites de chaque offre (requêtes par mois, par heure et par minute, taille de fichier, pages) sont celles de la
  page Offres ; les appels au-delà d'une limite sont refusés et ne sont pas décomptés.
- L'opérateur peut suspendre un compte qui enfreint ces conditions ou met le service en danger.

Pour toute question sur ces conditions, contactez l'opérateur de ce service depuis la page Support.
`,
  },
  privacy: {
    en: `# Privacy Policy

The operator of this service has not written its privacy policy yet. Until they do, this describes what the software
keeps.

- **Account**: your name, e-mail address, optional company, a hash of your password, your sessions and notifications.
- **Usage**: one record per API call (time, endpoint, status, duration, sizes), used for your quota, your analytics and
  the operator's billing.
- **Documents**: files sent to a synchronous call are processed in a temporary folder deleted once the answer is sent.
  The results of asynchronous jobs are kept for download for the time stated on the Support page, then deleted.
- Nothing is sold or shared with third parties by the software itself.

To see, correct or delete your data, contact the operator of this service through the Support page.
`,
    fr: `# Politique de confidentialité

L'opérateur de ce service n'a pas encore rédigé sa politique de confidentialité. D'ici là, voici ce que le logiciel
conserve.

- **Compte** : votre nom, votre adresse e-mail, votre société (facultative), une empreinte de votre mot de passe, vos
  sessions et vos notifications.
- **Utilisation** : un enregistrement par appel d'API (heure, endpoint, statut, durée, tailles), pour votre quota, vos
  statistiques et la facturation de l'opérateur.
- **Documents** : les fichiers envoyés à un appel synchrone sont traités dans un dossier temporaire supprimé dès la
  réponse envoyée. Les résultats des tâches asynchrones sont gardés pour téléchargement pendant la durée indiquée sur
  la page Support, puis supprimés.
- Le logiciel lui-même ne vend ni ne partage rien avec des tiers.

Pour consulter, corriger ou supprimer vos données, contactez l'opérateur de ce service depuis la page Support.
`,
  },
};
