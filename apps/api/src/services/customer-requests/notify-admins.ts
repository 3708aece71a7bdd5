import { eq, inArray, and } from 'drizzle-orm';
import { adminCapabilities, roleRank, type TNotificationCode, type TUserRole } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { users } from '../../data/schema/index';
import { mailLanguage } from '../accounts/mails';
import { notify } from '../notifications';
import { requestTexts } from './texts';

type AdminEvent = 'plan-request.created' | 'support-message.created';

/** Every active account allowed to answer customer requests: those are who get told one arrived. */
export async function notifyRequestHandlers(db: Db, code: AdminEvent, params: Record<string, string | number>) {
  const needed = roleRank[adminCapabilities.customerRequests];
  const roles = (Object.keys(roleRank) as TUserRole[]).filter((r) => roleRank[r] >= needed);
  const admins = await db
    .select({ id: users.id, language: users.language })
    .from(users)
    .where(and(inArray(users.role, roles), eq(users.isActive, true)));
  await Promise.all(
    admins.map((a) =>
      notify(db, a.id, {
        type: 'info',
        ...requestTexts[code][mailLanguage(a.language)](params),
        code: code satisfies TNotificationCode,
        params,
      }),
    ),
  );
}
