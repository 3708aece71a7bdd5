/** Spec-2 §5 and §8, verbatim where the spec gives the text. */
export const userMessages = {
  empty: 'Aucun utilisateur trouvé',
  active: 'Actif',
  unverified: 'Email non vérifié',
  inactive: 'Inactif',
  deleteConfirm: (name: string) => `Êtes-vous sûr de vouloir supprimer "${name}" ? Cette action est irréversible.`,
  statusConfirm: (name: string, activate: boolean) =>
    `Êtes-vous sûr de vouloir ${activate ? 'activer' : 'désactiver'} "${name}" ?`,
  created: 'Utilisateur créé avec succès !',
  updated: 'Utilisateur mis à jour avec succès !',
  deleted: (n: number) => `Utilisateur supprimé avec succès (${n} clés API supprimées)`,
  statusChanged: (active: boolean) => `Utilisateur ${active ? 'activé' : 'désactivé'} avec succès !`,
  errors: {
    load: 'Erreur lors du chargement des utilisateurs',
    loadOne: "Erreur lors du chargement de l'utilisateur",
    search: 'Erreur lors de la recherche',
    create: "Erreur lors de la création de l'utilisateur",
    update: 'Erreur lors de la mise à jour',
    delete: 'Erreur lors de la suppression',
    toggle: 'Erreur lors de la modification',
    stats: 'Erreur lors du chargement des statistiques',
  },
  restricted: 'Accès refusé',
} as const;
