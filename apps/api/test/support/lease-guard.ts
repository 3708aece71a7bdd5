import { afterAll } from 'vitest';
import { deadLocks, heldLeases, releaseAllLeases } from '../../src/core/tool-accounts';

/**
 * Every API test file must end holding no tools' account: a workspace left undisposed, or engines or an app left
 * open (a LibreOffice instance holds one), keeps its account leased for the life of the process, and a run that
 * leaves enough of them starves every later request (each waits, then is refused as busy). Registered before the
 * file's own hooks, so it runs after them (Vitest runs after-hooks last-registered first). The file fails, naming
 * where each lease was taken; the leases are then given back, so the next file does not pay for this one.
 */
afterAll(async () => {
  // A file that killed a server outright (a crash test) leaves its locks: reclaimed now, the accounts swept.
  if (deadLocks() > 0) {
    const { testEngines } = await import('../fixtures/engines');
    const engines = testEngines();
    await engines.accounts.reclaimDead();
    await engines.close();
  }
  const held = heldLeases();
  if (held.length === 0) return;
  await releaseAllLeases();
  const where = held.map(({ user, takenAt }) => {
    const frames = takenAt.split('\n').filter((l) => l.includes('/test/') && !l.includes('lease-guard'));
    return `  ${user.name}, leased at\n${(frames.length ? frames : takenAt.split('\n').slice(1)).slice(0, 12).join('\n')}`;
  });
  throw new Error(
    `this file ended holding ${held.length} tools' account lease(s): dispose its workspaces, close its engines and apps\n${where.join('\n')}`,
  );
});
