import { AlertTriangle, CheckCircle2, Info, RefreshCw } from 'lucide-react';
import type { TApiKey } from '@docflow/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { environmentLabel } from '../utils/key-display';
import { keyMessages } from '../utils/messages';
import { SecretKeyField } from './secret-key-field';
import { useTranslation } from 'react-i18next';

/** The effects the confirmation lists (spec-2 §2). */
const effects = [
  'regenerateApiKeyDialog.effects.newSecret',
  'regenerateApiKeyDialog.effects.stops',
  'regenerateApiKeyDialog.effects.transferred',
  'regenerateApiKeyDialog.effects.shownOnce',
  'regenerateApiKeyDialog.effects.irreversible',
] as const;

export function RegenerateConfirmDialog({
  apiKey,
  onCancel,
  onConfirm,
  isPending,
}: {
  apiKey: TApiKey | null;
  onCancel: () => void;
  onConfirm: (key: TApiKey) => void;
  isPending: boolean;
}) {
  const { t } = useTranslation();
  const name = apiKey?.name?.trim() || t('regenerateApiKeyDialog.unnamedKey');
  return (
    <Dialog open={apiKey !== null} onOpenChange={(open) => !open && !isPending && onCancel()}>
      <DialogContent
        title={t('regenerateApiKeyDialog.regenerateApiKey')}
        description={
          <>
            {t('regenerateApiKeyDialog.youAreAboutToRegenerate')}{' '}
            <strong className="font-semibold text-slate-900">{name}</strong>.
          </>
        }
        className="max-w-lg"
        onInteractOutside={(e) => isPending && e.preventDefault()}
        onEscapeKeyDown={(e) => isPending && e.preventDefault()}
      >
        <div className="mt-4 rounded-xl bg-amber-50 p-4 ring-1 ring-inset ring-amber-200">
          <p className="flex items-center gap-2 text-sm font-semibold text-amber-900">
            <AlertTriangle className="h-4 w-4" aria-hidden="true" />
            {t('regenerateApiKeyDialog.whatHappens')}
          </p>
          <ul className="mt-2 list-disc space-y-1 pl-6 text-sm text-amber-900/90">
            {effects.map((e) => (
              <li key={e}>{t(e)}</li>
            ))}
          </ul>
        </div>
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onCancel} disabled={isPending}>
            {t('regenerateApiKeyDialog.cancel')}
          </Button>
          <Button variant="danger" onClick={() => apiKey && onConfirm(apiKey)} isLoading={isPending}>
            {!isPending && <RefreshCw className="h-4 w-4" aria-hidden="true" />}
            {t('regenerateApiKeyDialog.regenerateKey')}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

/** After regeneration (spec-2 §2, in French): the new key with copy, name, environment, status and the notes. */
export function RegeneratedKeyDialog({ apiKey, onClose }: { apiKey: TApiKey | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={apiKey !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={t('regenerateApiKeyDialog.cleApiRegeneree')}
        description={t('regenerateApiKeyDialog.voiciVotreNouvelleCleApi')}
        className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto"
        onInteractOutside={(e) => e.preventDefault()}
      >
        {apiKey && (
          <div className="mt-5 space-y-5" data-testid="api-key-regenerated">
            {apiKey.key && (
              <SecretKeyField
                value={apiKey.key}
                copyLabel={t('regenerateApiKeyDialog.copier')}
                copiedLabel={t('regenerateApiKeyDialog.copiee')}
                copyAriaLabel={t('regenerateApiKeyDialog.copierLaCleApi')}
              />
            )}
            <dl className="grid grid-cols-1 gap-3 rounded-xl bg-slate-50 p-4 text-sm sm:grid-cols-3">
              <div className="min-w-0">
                <dt className="text-slate-500">{t('regenerateApiKeyDialog.nomDeLaCle')}</dt>
                <dd className="truncate font-medium text-slate-900">
                  {apiKey.name?.trim() || t('regenerateApiKeyDialog.unnamedKey')}
                </dd>
              </div>
              <div>
                <dt className="text-slate-500">{t('regenerateApiKeyDialog.environnement')}</dt>
                <dd className="font-medium text-slate-900">{environmentLabel[apiKey.environment]}</dd>
              </div>
              <div>
                <dt className="text-slate-500">{t('regenerateApiKeyDialog.statut')}</dt>
                <dd>
                  <Badge tone="green" className="whitespace-nowrap">
                    <CheckCircle2 className="h-3 w-3" aria-hidden="true" />
                    {keyMessages.newlyGenerated}
                  </Badge>
                </dd>
              </div>
            </dl>
            <div className="rounded-xl bg-indigo-50 p-4 text-sm text-indigo-900 ring-1 ring-inset ring-indigo-200">
              <p className="flex items-center gap-2 font-semibold">
                <Info className="h-4 w-4" aria-hidden="true" />
                {t('regenerateApiKeyDialog.important')}
              </p>
              <ul className="mt-2 list-disc space-y-1 pl-6">
                <li>{t('regenerateApiKeyDialog.mettezAJourCetteCle')}</li>
                <li>{t('regenerateApiKeyDialog.lAncienneCleEstDesactivee')}</li>
                <li>{t('regenerateApiKeyDialog.conservezLaNouvelleCleEn')}</li>
              </ul>
            </div>
            <div className="flex justify-end">
              <Button onClick={onClose}>{t('regenerateApiKeyDialog.jAiCopieLaCle')}</Button>
            </div>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
