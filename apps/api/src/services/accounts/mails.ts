import type { Mail } from '../mailer';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function layout(title: string, name: string, intro: string, action: string, link: string, outro: string): string {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111;max-width:560px;margin:auto">
<h2>${escapeHtml(title)}</h2>
<p>Hello ${escapeHtml(name)},</p>
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#2563eb;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="font-size:13px;color:#555">Or paste this link into your browser:<br>${escapeHtml(link)}</p>
<p style="font-size:13px;color:#555">${escapeHtml(outro)}</p>
</body></html>`;
}

/** A mail whose one action is a link: the same words as text and as HTML. */
function actionMail(m: {
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
    text: `Hello ${m.name},\n\n${m.intro}\n\n${m.link}\n\n${m.outro}\n`,
    html: layout(m.title, m.name, m.intro, m.action, m.link, m.outro),
    ...(m.secretLink ? { link: m.link } : {}),
  };
}

export const verificationMail = (to: string, name: string, link: string): Mail =>
  actionMail({
    to,
    name,
    link,
    subject: 'Verify your DocFlow e-mail address',
    title: 'Verify your e-mail address',
    intro: 'Thanks for signing up for DocFlow. Please confirm your e-mail address to activate your account.',
    action: 'Verify my e-mail',
    outro: "This link expires in 24 hours and works once. If you didn't create an account, ignore this e-mail.",
    secretLink: true,
  });

export const passwordResetMail = (to: string, name: string, link: string): Mail =>
  actionMail({
    to,
    name,
    link,
    subject: 'Reset your DocFlow password',
    title: 'Reset your password',
    intro: 'Someone (hopefully you) asked to reset the password of your DocFlow account.',
    action: 'Choose a new password',
    outro:
      "This link expires in 1 hour and works once. If you didn't ask for it, ignore this e-mail: your password stays unchanged.",
    secretLink: true,
  });

/** To the owner of an address someone tried to sign up with: the sign-up answer itself never says it was taken. */
export const accountExistsMail = (to: string, name: string, signInLink: string): Mail =>
  actionMail({
    to,
    name,
    link: signInLink,
    subject: 'You already have a DocFlow account',
    title: 'You already have an account',
    intro:
      'Someone (hopefully you) tried to create a DocFlow account with this e-mail address, which already has one. ' +
      'No new account was made. Sign in, or reset your password from the sign-in page if you have forgotten it.',
    action: 'Sign in',
    outro: "If it wasn't you, ignore this e-mail: nothing about your account changed.",
    secretLink: false,
  });
