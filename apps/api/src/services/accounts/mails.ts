import type { Mail } from '../mailer';

/** The languages of the account mails: the user's profile language when we speak it, else English. */
export type TMailLanguage = 'en' | 'fr';

export function mailLanguage(profileLanguage: string | null | undefined): TMailLanguage {
  return profileLanguage?.toLowerCase().split('-')[0] === 'fr' ? 'fr' : 'en';
}

/** The words every mail shares. */
const common = {
  en: { hello: 'Hello', paste: 'Or paste this link into your browser:' },
  fr: { hello: 'Bonjour', paste: 'Ou collez ce lien dans votre navigateur :' },
} as const;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function layout(
  lang: TMailLanguage,
  title: string,
  name: string,
  intro: string,
  action: string,
  link: string,
  outro: string,
): string {
  return `<!doctype html><html lang="${lang}"><body style="font-family:system-ui,sans-serif;color:#111;max-width:560px;margin:auto">
<h2>${escapeHtml(title)}</h2>
<p>${common[lang].hello} ${escapeHtml(name)},</p>
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#2563eb;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="font-size:13px;color:#555">${common[lang].paste}<br>${escapeHtml(link)}</p>
<p style="font-size:13px;color:#555">${escapeHtml(outro)}</p>
</body></html>`;
}

/** A mail whose one action is a link: the same words as text and as HTML. */
export function actionMail(m: {
  lang: TMailLanguage;
  to: string;
  name: string;
  subject: string;
  title: string;
  intro: string;
  action: string;
  link: string;
  outro: string;
  /** The link signs someone in or resets a password: the Mail carries it apart (for tests; never logged). */
  secretLink: boolean;
}): Mail {
  return {
    to: m.to,
    subject: m.subject,
    text: `${common[m.lang].hello} ${m.name},\n\n${m.intro}\n\n${m.link}\n\n${m.outro}\n`,
    html: layout(m.lang, m.title, m.name, m.intro, m.action, m.link, m.outro),
    ...(m.secretLink ? { link: m.link } : {}),
  };
}

const words = {
  verification: {
    en: {
      subject: 'Verify your DocFlow e-mail address',
      title: 'Verify your e-mail address',
      intro: 'Thanks for signing up for DocFlow. Please confirm your e-mail address to activate your account.',
      action: 'Verify my e-mail',
      outro: "This link expires in 24 hours and works once. If you didn't create an account, ignore this e-mail.",
    },
    fr: {
      subject: 'Vérifiez votre adresse e-mail DocFlow',
      title: 'Vérifiez votre adresse e-mail',
      intro: 'Merci de votre inscription à DocFlow. Confirmez votre adresse e-mail pour activer votre compte.',
      action: 'Vérifier mon e-mail',
      outro:
        "Ce lien expire dans 24 heures et ne sert qu'une fois. Si vous n'avez pas créé de compte, ignorez cet e-mail.",
    },
  },
  passwordReset: {
    en: {
      subject: 'Reset your DocFlow password',
      title: 'Reset your password',
      intro: 'Someone (hopefully you) asked to reset the password of your DocFlow account.',
      action: 'Choose a new password',
      outro:
        "This link expires in 1 hour and works once. If you didn't ask for it, ignore this e-mail: your password stays unchanged.",
    },
    fr: {
      subject: 'Réinitialisez votre mot de passe DocFlow',
      title: 'Réinitialisez votre mot de passe',
      intro: 'Quelqu’un (vous, espérons-le) a demandé à réinitialiser le mot de passe de votre compte DocFlow.',
      action: 'Choisir un nouveau mot de passe',
      outro:
        "Ce lien expire dans 1 heure et ne sert qu'une fois. Si vous ne l'avez pas demandé, ignorez cet e-mail : votre mot de passe reste inchangé.",
    },
  },
  accountExists: {
    en: {
      subject: 'You already have a DocFlow account',
      title: 'You already have an account',
      intro:
        'Someone (hopefully you) tried to create a DocFlow account with this e-mail address, which already has one. ' +
        'No new account was made. Sign in, or reset your password from the sign-in page if you have forgotten it.',
      action: 'Sign in',
      outro: "If it wasn't you, ignore this e-mail: nothing about your account changed.",
    },
    fr: {
      subject: 'Vous avez déjà un compte DocFlow',
      title: 'Vous avez déjà un compte',
      intro:
        'Quelqu’un (vous, espérons-le) a tenté de créer un compte DocFlow avec cette adresse e-mail, qui en a déjà un. ' +
        'Aucun nouveau compte n’a été créé. Connectez-vous, ou réinitialisez votre mot de passe depuis la page de connexion si vous l’avez oublié.',
      action: 'Se connecter',
      outro: "Si ce n'était pas vous, ignorez cet e-mail : rien n'a changé sur votre compte.",
    },
  },
} as const;

export const verificationMail = (to: string, name: string, link: string, lang: TMailLanguage = 'en'): Mail =>
  actionMail({ lang, to, name, link, ...words.verification[lang], secretLink: true });

export const passwordResetMail = (to: string, name: string, link: string, lang: TMailLanguage = 'en'): Mail =>
  actionMail({ lang, to, name, link, ...words.passwordReset[lang], secretLink: true });

/** To the owner of an address someone tried to sign up with: the sign-up answer itself never says it was taken. */
export const accountExistsMail = (to: string, name: string, signInLink: string, lang: TMailLanguage = 'en'): Mail =>
  actionMail({ lang, to, name, link: signInLink, ...words.accountExists[lang], secretLink: false });
