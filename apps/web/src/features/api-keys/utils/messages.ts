/**
 * The verbatim texts of spec-2 §2 and §8 for API keys: success toasts, the French error defaults shown when the
 * server sent no `error` field, the copy toasts and the delete confirmation.
 */
export const keyMessages = {
  created: 'Clé API créée avec succès !',
  updated: 'Clé API mise à jour avec succès !',
  deleted: 'Clé API supprimée avec succès !',
  regenerated: 'Clé API regénérée avec succès !',
  activated: 'Clé API activée avec succès !',
  deactivated: 'Clé API désactivée avec succès !',
  copied: 'Clé API copiée dans le presse-papiers !',
  copyFailed: 'Impossible de copier la clé API',
  deleteConfirm: 'Are you sure you want to delete this API key? This action cannot be undone.',
  noPlans: 'Aucun plan disponible',
  newlyGenerated: 'Nouvellement générée',
  /** Spec-2 §8 leaves the custom-key toasts unwritten: these follow the standard ones. */
  customCreated: 'Clé API personnalisée créée avec succès !',
  errors: {
    load: 'Erreur lors du chargement des clés API',
    loadOne: 'Erreur lors du chargement de la clé API',
    create: 'Erreur lors de la création de la clé API',
    update: 'Erreur lors de la mise à jour',
    delete: 'Erreur lors de la suppression',
    regenerate: 'Erreur lors de la regénération',
    toggle: 'Erreur lors de la modification',
    createCustom: 'Erreur lors de la création de la clé API personnalisée',
    template: 'Erreur lors du chargement du template',
    preview: 'Erreur lors de la prévisualisation',
  },
} as const;
