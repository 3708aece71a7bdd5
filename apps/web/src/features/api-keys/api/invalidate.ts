import type { QueryClient } from '@tanstack/react-query';
import { apiKeysQueryKey } from './get-api-keys';

/** After a key changes: the list, and the figures that count keys (usage analytics, dashboard). */
export function invalidateApiKeys(qc: QueryClient): Promise<void> {
  return Promise.all([
    qc.invalidateQueries({ queryKey: apiKeysQueryKey }),
    qc.invalidateQueries({ queryKey: ['usage'] }),
    qc.invalidateQueries({ queryKey: ['dashboard'] }),
  ]).then(() => undefined);
}
