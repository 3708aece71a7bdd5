import en from '@/i18n/locales/en.json';
import { localised, tr } from '@/i18n/localised';

const texts = localised(en.userMessages, 'userMessages');

/** Spec-2 §5 and §8: the spec's French texts verbatim in the French catalogue (`userMessages`), in the current language. */
export const userMessages = {
  get empty() {
    return texts.empty;
  },
  get active() {
    return texts.active;
  },
  get unverified() {
    return texts.unverified;
  },
  get inactive() {
    return texts.inactive;
  },
  deleteConfirm: (name: string) => tr('userMessages.deleteConfirm', { name }),
  statusConfirm: (name: string, activate: boolean) =>
    tr(activate ? 'userMessages.activateConfirm' : 'userMessages.deactivateConfirm', { name }),
  get created() {
    return texts.created;
  },
  get updated() {
    return texts.updated;
  },
  deleted: (n: number) => tr('userMessages.deleted', { count: n }),
  statusChanged: (active: boolean) => (active ? texts.activated : texts.deactivated),
  errors: texts.errors,
  get restricted() {
    return texts.restricted;
  },
};
