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

export function verificationMail(to: string, name: string, link: string): Mail {
  const intro = 'Thanks for signing up for DocFlow. Please confirm your e-mail address to activate your account.';
  const outro = "This link expires in 24 hours and works once. If you didn't create an account, ignore this e-mail.";
  return {
    to,
    subject: 'Verify your DocFlow e-mail address',
    text: `Hello ${name},\n\n${intro}\n\n${link}\n\n${outro}\n`,
    html: layout('Verify your e-mail address', name, intro, 'Verify my e-mail', link, outro),
    link,
  };
}

export function passwordResetMail(to: string, name: string, link: string): Mail {
  const intro = 'Someone (hopefully you) asked to reset the password of your DocFlow account.';
  const outro =
    "This link expires in 1 hour and works once. If you didn't ask for it, ignore this e-mail: your password stays unchanged.";
  return {
    to,
    subject: 'Reset your DocFlow password',
    text: `Hello ${name},\n\n${intro}\n\n${link}\n\n${outro}\n`,
    html: layout('Reset your password', name, intro, 'Choose a new password', link, outro),
    link,
  };
}

/** To the owner of an address someone tried to sign up with: the sign-up answer itself never says it was taken. */
export function accountExistsMail(to: string, name: string, signInLink: string): Mail {
  const intro =
    'Someone (hopefully you) tried to create a DocFlow account with this e-mail address, which already has one. ' +
    'No new account was made. Sign in, or reset your password from the sign-in page if you have forgotten it.';
  const outro = "If it wasn't you, ignore this e-mail: nothing about your account changed.";
  return {
    to,
    subject: 'You already have a DocFlow account',
    text: `Hello ${name},\n\n${intro}\n\n${signInLink}\n\n${outro}\n`,
    html: layout('You already have an account', name, intro, 'Sign in', signInLink, outro),
  };
}
