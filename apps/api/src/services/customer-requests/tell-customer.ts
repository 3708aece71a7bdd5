import { eq } from 'drizzle-orm';
import { users } from '../../data/schema/index';
import { mailLanguage } from '../accounts/mails';
import { notify } from '../notifications';
import type { RequestsContext } from './context';
import { requestTexts } from './texts';

type CustomerEvent = 'plan-request.granted' | 'plan-request.declined' | 'support-message.handled';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const greeting = { en: 'Hello', fr: 'Bonjour' } as const;

/**
 * Tell a customer an admin decided on their request: a notification in their bell and a mail, both in their
 * language. Never throws: the decision is made and stored whether or not the mail leaves.
 */
export async function tellCustomer(
  ctx: RequestsContext,
  userId: string,
  code: CustomerEvent,
  params: Record<string, string | number>,
  opts: { type: 'success' | 'warning' | 'info'; path: string; extra?: string },
): Promise<void> {
  const [user] = await ctx.db
    .select({ email: users.email, name: users.name, language: users.language })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) return;
  const lang = mailLanguage(user.language);
  const words = requestTexts[code][lang](params);
  await notify(ctx.db, userId, { type: opts.type, ...words, code, params });
  const link = `${ctx.publicUrl}${opts.path}`;
  const lines = [words.message, ...(opts.extra ? [opts.extra] : [])];
  try {
    await ctx.mailer.send({
      to: user.email,
      subject: `DocFlow: ${words.title}`,
      text: `${greeting[lang]} ${user.name},\n\n${lines.join('\n\n')}\n\n${link}\n`,
      html: `<!doctype html><html lang="${lang}"><body style="font-family:system-ui,sans-serif;color:#111;max-width:560px;margin:auto">
<h2>${escapeHtml(words.title)}</h2><p>${greeting[lang]} ${escapeHtml(user.name)},</p>
${lines.map((l) => `<p style="white-space:pre-wrap">${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p></body></html>`,
    });
  } catch {
    /* the mail queue retries and logs; the decision stands */
  }
}
