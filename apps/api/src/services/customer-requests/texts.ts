import type { TMailLanguage } from '../accounts/mails';

type Params = Record<string, string | number>;
type Text = (p: Params) => { title: string; message: string };

/**
 * The words of the notifications and mails of plan requests and support messages, in the two languages the mails
 * speak. The dashboard renders notifications from their code (web catalogue `notificationEvents`); these words are
 * stored beside the code for other readers, in the recipient's language.
 */
export const requestTexts: Record<
  | 'plan-request.created'
  | 'plan-request.granted'
  | 'plan-request.declined'
  | 'support-message.created'
  | 'support-message.handled',
  Record<TMailLanguage, Text>
> = {
  'plan-request.created': {
    en: (p) => ({ title: 'New plan request', message: `${p.user} asks for the ${p.plan} plan (${p.period}).` }),
    fr: (p) => ({ title: 'Nouvelle demande de plan', message: `${p.user} demande le plan ${p.plan} (${p.period}).` }),
  },
  'plan-request.granted': {
    en: (p) => ({
      title: `${p.plan} plan granted`,
      message: `Your request was granted: the ${p.plan} plan is yours until ${p.until}.`,
    }),
    fr: (p) => ({
      title: `Plan ${p.plan} accordé`,
      message: `Votre demande a été acceptée : le plan ${p.plan} est à vous jusqu'au ${p.until}.`,
    }),
  },
  'plan-request.declined': {
    en: (p) => ({
      title: `${p.plan} plan request declined`,
      message: `Your request for the ${p.plan} plan was declined: ${p.note}`,
    }),
    fr: (p) => ({
      title: `Demande du plan ${p.plan} refusée`,
      message: `Votre demande du plan ${p.plan} a été refusée : ${p.note}`,
    }),
  },
  'support-message.created': {
    en: (p) => ({ title: 'New support message', message: `${p.user}: ${p.subject}` }),
    fr: (p) => ({ title: 'Nouveau message au support', message: `${p.user} : ${p.subject}` }),
  },
  'support-message.handled': {
    en: (p) => ({ title: 'Support answered', message: `Your message “${p.subject}” was handled.` }),
    fr: (p) => ({ title: 'Le support a répondu', message: `Votre message « ${p.subject} » a été traité.` }),
  },
};

/** Labels of the billing periods inside those sentences. */
export const periodWords: Record<TMailLanguage, Record<string, string>> = {
  en: { monthly: 'monthly', yearly: 'yearly' },
  fr: { monthly: 'mensuel', yearly: 'annuel' },
};
