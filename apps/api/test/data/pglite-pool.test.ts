import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { plans, users } from '../../src/data/schema/index';
import { openTestDatabase } from '../helper';

/** A database handed out again after a test closed it is the template's: rows, plans and sequences as they were. */
describe('test databases handed out again', () => {
  it('come back with the first state: no rows a test wrote, the plans as seeded, sequences set back', async () => {
    const state = async (database: Awaited<ReturnType<typeof openTestDatabase>>) => ({
      users: await database.db.select().from(users),
      plans: await database.db.select().from(plans).orderBy(plans.name),
      sequences: await database.sql.query('SELECT sequencename, last_value FROM pg_sequences ORDER BY 1'),
    });
    const first = await openTestDatabase();
    const fresh = await state(first);
    const [user] = await first.db
      .insert(users)
      .values({ email: 'pool@example.test', name: 'Pool', passwordHash: 'x', registrationSource: 'web' })
      .returning();
    await first.db.update(plans).set({ validityDays: 7 }).where(eq(plans.name, 'free'));
    await first.sql.query(
      `INSERT INTO usage_events (key_id, user_id, endpoint, endpoint_group, method, status_code, duration_ms)
       VALUES (gen_random_uuid(), $1, '/ping', 'general', 'GET', 200, 1)`,
      [user!.id],
    );
    const used = await state(first);
    expect(used.users).toHaveLength(1);
    expect(used.plans).not.toEqual(fresh.plans);
    expect(used.sequences).not.toEqual(fresh.sequences);
    await first.close();

    const again = await openTestDatabase();
    try {
      expect(await state(again)).toEqual(fresh);
    } finally {
      await again.close();
    }
  });
});
