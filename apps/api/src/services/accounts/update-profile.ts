import { eq } from 'drizzle-orm';
import type { TUpdateProfileRequest, TUser } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { users } from '../../data/schema/index';
import { getUserById } from './find-user';
import { toUserDto } from './to-user-dto';

/** Update the settings-page fields. Absent fields stay; null or '' clears an optional one (the name cannot be cleared). */
export async function updateProfile(db: Db, userId: string, input: TUpdateProfileRequest): Promise<TUser> {
  const clear = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v === '' ? null : v);
  const changes = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.company !== undefined ? { company: clear(input.company) } : {}),
    ...(input.country !== undefined ? { country: clear(input.country) } : {}),
    ...(input.timezone !== undefined ? { timezone: clear(input.timezone) } : {}),
    ...(input.language !== undefined ? { language: clear(input.language) } : {}),
  };
  if (Object.keys(changes).length === 0) return toUserDto(db, await getUserById(db, userId));
  const [user] = await db
    .update(users)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  return toUserDto(db, user ?? (await getUserById(db, userId)));
}
