import { useCallback, useMemo, useState } from 'react';
import { KeyRound, Plus, Search, X } from 'lucide-react';
import type { TApiKey, TPlan } from '@docflow/contracts';
import { PageHeader } from '@/components/layouts/page-header';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { isApiError } from '@/lib/api-client';
import { useUser } from '@/lib/auth/auth-store';
import { usePlans } from '@/lib/plans/get-plans';
import { useApiKeys } from '../api/get-api-keys';
import { useDeleteApiKey } from '../api/delete-api-key';
import { useRegenerateApiKey } from '../api/regenerate-api-key';
import { useUpdateApiKey } from '../api/update-api-key';
import { matchesSearch } from '../utils/key-display';
import { planRefusal } from '../utils/plan-refusal';
import { keyMessages } from '../utils/messages';
import { ApiKeyCard } from './api-key-card';
import { CreateApiKeyDialog } from './create-api-key-dialog';
import { McpSetup } from './mcp-setup';
import { RegenerateConfirmDialog, RegeneratedKeyDialog } from './regenerate-api-key-dialog';
import { KeySettingsDialog } from './key-settings-dialog';
import { useTranslation } from 'react-i18next';

function KeyCardSkeleton() {
  return (
    <div
      className="animate-pulse space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      aria-hidden="true"
      data-testid="api-key-skeleton"
    >
      <div className="flex items-center gap-3">
        <div className="h-10 w-10 rounded-xl bg-slate-200" />
        <div className="flex-1 space-y-2">
          <div className="h-4 w-1/3 rounded bg-slate-200" />
          <div className="h-3 w-1/2 rounded bg-slate-100" />
        </div>
      </div>
      <div className="h-9 rounded-lg bg-slate-100" />
      <div className="h-2 rounded-full bg-slate-100" />
      <div className="grid grid-cols-2 gap-3">
        <div className="h-8 rounded bg-slate-100" />
        <div className="h-8 rounded bg-slate-100" />
        <div className="h-8 rounded bg-slate-100" />
        <div className="h-8 rounded bg-slate-100" />
      </div>
    </div>
  );
}

export function ApiKeysPage() {
  const { t } = useTranslation();
  const user = useUser();
  const keysQuery = useApiKeys();
  const plansQuery = usePlans({ refetchOnMount: false });
  const update = useUpdateApiKey();
  const remove = useDeleteApiKey();
  const regenerate = useRegenerateApiKey();

  const [search, setSearch] = useState('');
  const [createOpen, setCreateOpen] = useState(false);
  const [toRegenerate, setToRegenerate] = useState<TApiKey | null>(null);
  const [regenerated, setRegenerated] = useState<TApiKey | null>(null);
  const [settingsFor, setSettingsFor] = useState<TApiKey | null>(null);

  const keys = useMemo(() => keysQuery.data ?? [], [keysQuery.data]);
  const filtered = useMemo(() => keys.filter((k) => matchesSearch(k, search)), [keys, search]);
  // The server's rule for a new key's plan, from what the page already holds: the user's plans and keys.
  const refusalOf = useCallback((plan: TPlan) => planRefusal(plan, { user, keys }), [user, keys]);

  const busyId =
    (update.isPending && update.variables?.id) ||
    (remove.isPending && remove.variables) ||
    (regenerate.isPending && regenerate.variables) ||
    null;

  const onDelete = (key: TApiKey) => {
    if (window.confirm(keyMessages.deleteConfirm)) remove.mutate(key.id);
  };
  const onRegenerate = (key: TApiKey) =>
    regenerate.mutate(key.id, {
      onSuccess: (fresh) => {
        setToRegenerate(null);
        setRegenerated(fresh);
      },
    });

  const loadError = keysQuery.isError
    ? isApiError(keysQuery.error)
      ? (keysQuery.error.serverMessage ??
        (keysQuery.error.status === 0 ? keysQuery.error.message : keyMessages.errors.load))
      : keyMessages.errors.load
    : null;

  return (
    <div className="space-y-6">
      <PageHeader
        title={t('apiKeysPage.apiKeys')}
        description={t('apiKeysPage.createAndManageTheKeys')}
        actions={
          <Button onClick={() => setCreateOpen(true)}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            {t('apiKeysPage.createApiKey')}
          </Button>
        }
      />

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="relative w-full sm:max-w-sm">
          <Search
            className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400"
            aria-hidden="true"
          />
          <Input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder={t('apiKeysPage.searchApiKeys')}
            aria-label={t('apiKeysPage.searchApiKeys2')}
            className="pl-9"
          />
        </div>
        {keys.length > 0 && (
          <p className="text-sm text-slate-500" aria-live="polite">
            {search.trim()
              ? t('apiKeysPage.filteredCount', { shown: filtered.length, total: keys.length })
              : t('apiKeysPage.keyCount', { count: keys.length })}
          </p>
        )}
      </div>

      {loadError && (
        <Alert title={loadError}>
          <Button variant="link" size="sm" onClick={() => void keysQuery.refetch()}>
            {t('apiKeysPage.tryAgain')}
          </Button>
        </Alert>
      )}

      {keysQuery.isPending ? (
        <div className="grid gap-4 lg:grid-cols-2" aria-busy="true" aria-label={t('apiKeysPage.loadingApiKeys')}>
          {Array.from({ length: 4 }, (_, i) => (
            <KeyCardSkeleton key={i} />
          ))}
        </div>
      ) : filtered.length === 0 && !keysQuery.isError ? (
        <div className="flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center">
          <div className="grid h-12 w-12 place-items-center rounded-full bg-indigo-50 text-indigo-600">
            {search.trim() ? (
              <Search className="h-6 w-6" aria-hidden="true" />
            ) : (
              <KeyRound className="h-6 w-6" aria-hidden="true" />
            )}
          </div>
          <h2 className="mt-4 font-semibold text-slate-900">{t('apiKeysPage.noApiKeysFound')}</h2>
          {search.trim() ? (
            <>
              <p className="mt-1 text-sm text-slate-600">
                {t('apiKeysPage.noKeyMatches')}
                {search.trim()}”.
              </p>
              <Button variant="secondary" size="sm" className="mt-4" onClick={() => setSearch('')}>
                <X className="h-4 w-4" aria-hidden="true" />
                {t('apiKeysPage.clearSearch')}
              </Button>
            </>
          ) : (
            <>
              <p className="mt-1 max-w-sm text-sm text-slate-600">{t('apiKeysPage.createYourFirstKeyTo')}</p>
              <Button className="mt-5" onClick={() => setCreateOpen(true)}>
                <Plus className="h-4 w-4" aria-hidden="true" />
                {t('apiKeysPage.createYourFirstApiKey')}
              </Button>
            </>
          )}
        </div>
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          {filtered.map((key) => (
            <ApiKeyCard
              key={key.id}
              apiKey={key}
              busy={busyId === key.id}
              onToggle={(k) => update.mutate({ id: k.id, isActive: !k.isActive })}
              onRegenerate={setToRegenerate}
              onDelete={onDelete}
              onSettings={setSettingsFor}
            />
          ))}
        </div>
      )}

      <McpSetup />

      <CreateApiKeyDialog open={createOpen} onOpenChange={setCreateOpen} plans={plansQuery} refusalOf={refusalOf} />
      <RegenerateConfirmDialog
        apiKey={toRegenerate}
        onCancel={() => setToRegenerate(null)}
        onConfirm={onRegenerate}
        isPending={regenerate.isPending}
      />
      <RegeneratedKeyDialog apiKey={regenerated} onClose={() => setRegenerated(null)} />
      <KeySettingsDialog
        apiKey={settingsFor}
        planValidityDays={plansQuery.data?.find((p) => p.name === settingsFor?.planName)?.validityDays}
        onClose={() => setSettingsFor(null)}
      />
    </div>
  );
}
