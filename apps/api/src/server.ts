import closeWithGrace from './lib/close-with-grace';
import { ConfigError } from './config/config-error';
import { loadConfig } from './config/env';
import { openDatabase } from './data/db';
import { migrate } from './data/migrate';
import { buildApp } from './app';
import { ensureOwner } from './services/accounts/seed-owner';

/** Wiring and start-up only: configuration, database, migrations, first owner, HTTP. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78);
    }
    throw err;
  }
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  const applied = await migrate(database);
  const app = await buildApp({ config, database });
  if (applied.length) app.log.info({ applied }, 'migrations applied');
  if (
    await ensureOwner(app.db, { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD, name: config.ADMIN_NAME })
  )
    app.log.info({ email: config.ADMIN_EMAIL }, 'owner account created');
  closeWithGrace(async (signal) => {
    app.log.info({ signal }, 'shutting down');
    // The database closes last: the app's own shutdown (the usage meter's final write) still needs it.
    await app.close();
    await database.close();
  });
  // After HTTP is up, so that /health answers at once; an API node with processing off runs no engine.
  const warm = () => {
    if (!config.WARM_ENGINES || config.PROCESSING_MODE === 'api') return;
    const started = performance.now();
    void app.engines.warm().then(() => {
      const states = app.engines.warmState();
      app.log.info({ engines: states, ms: Math.round(performance.now() - started) }, 'engines warmed');
    });
  };
  if (config.PROCESSING_MODE === 'worker') {
    // A worker takes no HTTP: it runs the jobs every API node admits into the shared database.
    await app.ready();
    warm();
    app.log.info(`DocFlow worker ready: running up to ${config.JOB_CONCURRENCY} jobs at once`);
    return;
  }
  await app.listen({ port: config.PORT, host: config.HOST });
  warm();
  app.log.info(
    `DocFlow ready: dashboard ${config.publicUrl}/ · API ${config.publicUrl}/api/v1 · docs ${config.publicUrl}/api-docs`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
