import type { TUser } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { getUserById } from './find-user';
import { toUserDto } from './to-user-dto';

export async function getUser(db: Db, userId: string): Promise<TUser> {
  return toUserDto(db, await getUserById(db, userId));
}
