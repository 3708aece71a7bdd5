import { AlertTriangle, CheckCircle2, Info, RefreshCw } from 'lucide-react';
import type { TApiKey } from '@docflow/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { environmentLabel } from '../utils/key-display';
import { keyMessages } from '../utils/messages';
import { SecretKeyField } from './secret-key-field';

/** The effects the confirmation lists (spec-2 §2). */
const effects = [
  'A new secret key is generated for this key.',
  'The current key stops working immediately: every call made with it will be refused.',
  'Usage statistics and limits are transferred to the new key.',
  'The new key is shown only once: copy it before closing the dialog.',
  'This action cannot be undone.',
];

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
  const name = apiKey?.name?.trim() || 'Unnamed Key';
  return (
    <Dialog open={apiKey !== null} onOpenChange={(open) => !open && !isPending && onCancel()}>
      <DialogContent
        title="Regenerate API key?"
        description={
          <>
            You are about to regenerate <strong className="font-semibold text-slate-900">{name}</strong>.
          </>
        }
        className="max-w-lg"
        onInteractOutside={(e) => isPending && e.preventDefault()}
        onEscapeKeyDown={(e) => isPending && e.preventDefault()}
      >
        <div className="mt-4 rounded-xl bg-amber-50 p-4 ring-1 ring-inset ring-amber-200">
          <p className="flex items-center gap-2 text-sm font-semibold text-amber-900">
            <AlertTriangle className="h-4 w-4" aria-hidden="true" />
            What happens
          </p>
          <ul className="mt-2 list-disc space-y-1 pl-6 text-sm text-amber-900/90">
            {effects.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onCancel} disabled={isPending}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => apiKey && onConfirm(apiKey)} isLoading={isPending}>
            {!isPending && <RefreshCw className="h-4 w-4" aria-hidden="true" />}
            Regenerate key
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

/** After regeneration (spec-2 §2, in French): the new key with copy, name, environment, status and the notes. */
export function RegeneratedKeyDialog({ apiKey, onClose }: { apiKey: TApiKey | null; onClose: () => void }) {
  return (
    <Dialog open={apiKey !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title="Clé API regénérée"
        description="Voici votre nouvelle clé API. Copiez-la maintenant : pour votre sécurité, elle ne sera plus jamais affichée."
        className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto"
        onInteractOutside={(e) => e.preventDefault()}
      >
        {apiKey && (
          <div className="mt-5 space-y-5" data-testid="api-key-regenerated">
            {apiKey.key && (
              <SecretKeyField
                value={apiKey.key}
                copyLabel="Copier"
                copiedLabel="Copiée"
                copyAriaLabel="Copier la clé API"
              />
            )}
            <dl className="grid grid-cols-1 gap-3 rounded-xl bg-slate-50 p-4 text-sm sm:grid-cols-3">
              <div className="min-w-0">
                <dt className="text-slate-500">Nom de la clé</dt>
                <dd className="truncate font-medium text-slate-900">{apiKey.name?.trim() || 'Unnamed Key'}</dd>
              </div>
              <div>
                <dt className="text-slate-500">Environnement</dt>
                <dd className="font-medium text-slate-900">{environmentLabel[apiKey.environment]}</dd>
              </div>
              <div>
                <dt className="text-slate-500">Statut</dt>
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
                Important
              </p>
              <ul className="mt-2 list-disc space-y-1 pl-6">
                <li>Mettez à jour cette clé dans toutes vos applications et services qui utilisent l'ancienne.</li>
                <li>L'ancienne clé est désactivée immédiatement : les appels qui l'utilisent seront refusés.</li>
                <li>Conservez la nouvelle clé en lieu sûr (variables d'environnement, gestionnaire de secrets).</li>
              </ul>
            </div>
            <div className="flex justify-end">
              <Button onClick={onClose}>J'ai copié la clé</Button>
            </div>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
