import { inArray } from 'drizzle-orm';
import type { TNotificationCode } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { users } from '../../data/schema/index';
import { actionMail, mailLanguage, type TMailLanguage } from '../accounts/mails';
import { notify } from '../notifications';
import type { BillingContext } from './context';

export type BillingNoticeCode = Extract<TNotificationCode, `billing.${string}`>;

/** One step of a user's billing told to them: a notification in the bell and a mail. */
export interface BillingNotice {
  userId: string;
  code: BillingNoticeCode;
  params: { plan: string; from?: string; until?: string };
  /** The same step is told once, however many events report it. */
  dedupeKey: string;
}

type Words = { title: string; message: string };
/** The words of each step; the dashboard's bell has the same in its catalogues (notificationEvents.billing). */
const texts: Record<BillingNoticeCode, { type: 'success' | 'warning' | 'info' } & Record<TMailLanguage, Words>> = {
  'billing.subscribed': {
    type: 'success',
    en: {
      title: '{{plan}} subscription active',
      message: 'Your {{plan}} plan is paid and active. Next payment on {{until}}.',
    },
    fr: {
      title: 'Abonnement {{plan}} actif',
      message: 'Votre plan {{plan}} est payé et actif. Prochain paiement le {{until}}.',
    },
  },
  'billing.upgraded': {
    type: 'success',
    en: { title: 'Upgraded to {{plan}}', message: 'Your {{plan}} plan applies now, in place of {{from}}.' },
    fr: {
      title: 'Passage au plan {{plan}}',
      message: "Votre plan {{plan}} s'applique dès maintenant, à la place de {{from}}.",
    },
  },
  'billing.downgrade-scheduled': {
    type: 'info',
    en: {
      title: 'Change to {{plan}} scheduled',
      message: 'You keep {{from}} until {{until}}, the end of the period you paid for; {{plan}} applies from then.',
    },
    fr: {
      title: 'Passage au plan {{plan}} programmé',
      message: "Vous gardez {{from}} jusqu'au {{until}}, fin de la période payée ; {{plan}} s'applique ensuite.",
    },
  },
  'billing.cancel-scheduled': {
    type: 'info',
    en: {
      title: '{{plan}} subscription cancelled',
      message:
        'Your {{plan}} plan stays active until {{until}}, the end of the period you paid for; your account is then on the Free plan.',
    },
    fr: {
      title: 'Abonnement {{plan}} résilié',
      message:
        "Votre plan {{plan}} reste actif jusqu'au {{until}}, fin de la période payée ; votre compte passe ensuite au plan Free.",
    },
  },
  'billing.resumed': {
    type: 'success',
    en: {
      title: '{{plan}} subscription resumed',
      message: 'Your {{plan}} plan renews as before; next payment on {{until}}.',
    },
    fr: {
      title: 'Abonnement {{plan}} repris',
      message: 'Votre plan {{plan}} se renouvelle comme avant ; prochain paiement le {{until}}.',
    },
  },
  'billing.payment-failed': {
    type: 'warning',
    en: {
      title: 'Payment failed for {{plan}}',
      message:
        'We could not take the payment for your {{plan}} plan. It stays active until {{until}}: update your card in Manage billing, or your account goes back to the Free plan then.',
    },
    fr: {
      title: 'Échec du paiement du plan {{plan}}',
      message:
        "Le paiement de votre plan {{plan}} a échoué. Il reste actif jusqu'au {{until}} : mettez à jour votre carte dans « Gérer la facturation », sinon votre compte repassera au plan Free à cette date.",
    },
  },
  'billing.payment-recovered': {
    type: 'success',
    en: { title: 'Payment received for {{plan}}', message: 'Thank you: your {{plan}} plan is active again.' },
    fr: { title: 'Paiement reçu pour le plan {{plan}}', message: 'Merci : votre plan {{plan}} est de nouveau actif.' },
  },
  'billing.ended': {
    type: 'warning',
    en: {
      title: '{{plan}} plan ended',
      message:
        'Your {{plan}} subscription has ended: from {{until}} your account is on the Free plan, and its {{plan}} API keys answer 402 until you subscribe again.',
    },
    fr: {
      title: 'Plan {{plan}} terminé',
      message:
        "Votre abonnement {{plan}} est terminé : à partir du {{until}}, votre compte est au plan Free, et ses clés API {{plan}} répondent 402 jusqu'à un nouvel abonnement.",
    },
  },
};

const fill = (text: string, params: BillingNotice['params']) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(params[k as keyof typeof params] ?? ''));

export const day = (d: Date | null | undefined) => (d ? d.toISOString().slice(0, 10) : '');

/** Into the bell, in the transaction that applied the step (so a rolled-back event tells nothing). */
export async function recordNotices(tx: Db, notices: readonly BillingNotice[]): Promise<void> {
  for (const n of notices) {
    const t = texts[n.code];
    await notify(tx, n.userId, {
      type: t.type,
      title: fill(t.en.title, n.params),
      message: fill(t.en.message, n.params),
      code: n.code,
      params: n.params,
      dedupeKey: n.dedupeKey,
    });
  }
}

/** The same steps by mail, each in its reader's language, after the transaction committed. Never throws. */
export async function mailNotices(ctx: BillingContext, notices: readonly BillingNotice[]): Promise<void> {
  if (!notices.length) return;
  try {
    const ids = [...new Set(notices.map((n) => n.userId))];
    const rows = await ctx.db
      .select({ id: users.id, email: users.email, name: users.name, language: users.language })
      .from(users)
      .where(inArray(users.id, ids));
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const n of notices) {
      const user = byId.get(n.userId);
      if (!user) continue;
      const lang = mailLanguage(user.language);
      const words = texts[n.code][lang];
      const title = fill(words.title, n.params);
      await ctx.mailer.send(
        actionMail({
          lang,
          to: user.email,
          name: user.name,
          subject: `DocFlow: ${title}`,
          title,
          intro: fill(words.message, n.params),
          action: lang === 'fr' ? 'Voir ma facturation' : 'See my billing',
          link: `${ctx.publicUrl}/plans`,
          outro:
            lang === 'fr'
              ? 'Factures, carte et résiliation : « Gérer la facturation » sur la page des plans.'
              : 'Invoices, card and cancellation: "Manage billing" on the plans page.',
          secretLink: false,
        }),
      );
    }
  } catch (err) {
    ctx.log.warn({ err }, 'billing mails not sent');
  }
}
