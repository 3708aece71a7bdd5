import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TApiKey, TPagination } from '@docflow/contracts';
import { api } from '@/lib/api-client';
import { toastKeyError } from '../utils/key-error';
import { keyMessages } from '../utils/messages';

export interface ApiKeysPage {
  apiKeys: TApiKey[];
  pagination: TPagination;
}

/** The largest page the server gives (ZPageQuery); a user holds at most a plan's key count, far below it. */
const PAGE_LIMIT = 100;

/**
 * GET /my/api-keys: the user's keys. A failure toasts the server's error, else the spec's French default (one toast
 * even when the query retries), and the page shows the same text in its banner.
 */
export const getApiKeys = async (): Promise<TApiKey[]> => {
  try {
    const res = await api.get<{ data: ApiKeysPage }>('/my/api-keys', {
      query: { page: 1, limit: PAGE_LIMIT },
      silent: true,
    });
    return res.data.apiKeys;
  } catch (err) {
    toastKeyError(err, keyMessages.errors.load, 'api-keys-load-error');
    throw err;
  }
};

export const apiKeysQueryKey = ['api-keys'] as const;

/** Usage counters change with every call made with a key: re-read on every visit. */
export const getApiKeysQueryOptions = () =>
  queryOptions({ queryKey: [...apiKeysQueryKey, 'list'], queryFn: getApiKeys, staleTime: 0 });

export const useApiKeys = (opts: { enabled?: boolean } = {}) =>
  useQuery({ ...getApiKeysQueryOptions(), enabled: opts.enabled ?? true });
