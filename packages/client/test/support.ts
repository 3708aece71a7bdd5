import { createTestApp, type TestApp, type TestAppOptions } from '@docflow/api/testing';
import { openTestDatabase } from '@docflow/api/testing/helper';

/** The real DocFlow app listening on a free port of 127.0.0.1, so the client talks real HTTP to it. */
export async function listeningApp(
  opts: Pick<TestAppOptions, 'routes' | 'env'> = {},
): Promise<TestApp & { url: string }> {
  const t = await createTestApp({ ...opts, database: () => openTestDatabase(), listen: true });
  return { ...t, url: t.url! };
}
