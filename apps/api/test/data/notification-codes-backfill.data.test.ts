import { readFileSync } from 'node:fs';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/data/db';
import { migrationsDir } from '../../src/data/migrate';
import { notifications, users } from '../../src/data/schema/index';
import { drivers, openTestDatabase } from '../helper';

/**
 * Migration 0041: notifications stored before codes existed get their code and values back from their French words,
 * so the bell shows the usage and trial reminders in its reader's language. The rows are written as the old server
 * wrote them, then the migration's SQL is run over them (it only touches rows without a code: running it again is
 * harmless).
 */
describe.each(drivers)('notification codes backfill on %s', (driver) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(driver);
  }, 60_000);
  afterAll(() => database?.close());

  it('recovers the code and values of the known sentences, and leaves the others alone', async () => {
    const [user] = await database.db
      .insert(users)
      .values({
        email: 'legacy@example.test',
        name: 'Legacy',
        passwordHash: 'not-a-hash',
        registrationSource: 'web',
      })
      .returning();
    const legacy = [
      {
        title: 'Quota mensuel bientôt atteint',
        message: 'La clé « Batch nightly » a utilisé 81 % de son quota mensuel (8100 / 10000 requêtes).',
      },
      {
        title: 'Quota mensuel bientôt atteint',
        message: 'Vos clés du forfait Pro ont utilisé 85 % de son quota mensuel (85000 / 100000 requêtes).',
      },
      { title: 'Essai Pro bientôt terminé', message: 'Votre essai du plan Pro se termine dans 1 jour (2026-12-01).' },
      {
        title: 'Essai Pro terminé',
        message:
          "Votre essai du plan Pro est terminé : ses clés API répondent 402 jusqu'au renouvellement par un administrateur.",
      },
      {
        title: 'Essai Pro activé',
        message:
          "Votre essai gratuit de 14 jours du plan Pro est actif jusqu'au 2026-12-12. Aucune carte bancaire n'est nécessaire.",
      },
      {
        title: 'Clé API créée',
        message: 'La clé « Prod » (Pro, production) a été créée. Conservez-la : elle ne sera plus affichée.',
      },
      { title: 'Annonce', message: 'Un message que le serveur ne sait pas relire.' },
    ];
    await database.db.insert(notifications).values(
      legacy.map((n, i) => ({
        userId: user!.id,
        type: 'warning' as const,
        ...n,
        createdAt: new Date(Date.UTC(2026, 10, 1, 0, i)),
      })),
    );
    const sql = readFileSync(path.join(migrationsDir, '0041_notification_codes_backfill.sql'), 'utf8');
    await database.sql.exec(sql);
    await database.sql.exec(sql);

    const rows = await database.db
      .select({ code: notifications.code, params: notifications.params, message: notifications.message })
      .from(notifications)
      .where(eq(notifications.userId, user!.id))
      .orderBy(asc(notifications.createdAt));
    expect(rows.map((r) => [r.code, r.params])).toEqual([
      ['usage.key-quota-80', { name: 'Batch nightly', percent: 81, used: 8100, limit: 10000 }],
      ['usage.plan-quota-80', { plan: 'Pro', percent: 85, used: 85000, limit: 100000 }],
      ['trial.ending', { plan: 'Pro', days: 1, until: '2026-12-01' }],
      ['trial.ended', { plan: 'Pro' }],
      ['trial.started', { plan: 'Pro', days: 14, until: '2026-12-12' }],
      ['api-key.created', { name: 'Prod', plan: 'Pro', environment: 'production' }],
      [null, {}],
    ]);
    // The words stay, for readers that do not know the code.
    expect(rows[0]!.message).toBe(legacy[0]!.message);
  });
});
