import { useTranslation } from 'react-i18next';
import { TRIAL_DAYS, type TPlan } from '@docflow/contracts';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';

/**
 * Asked before a trial starts: what it is, and that an e-mail address gets only one (the server refuses a second),
 * so nobody spends it by a stray click.
 */
export function TrialConfirmDialog({
  plan,
  isPending,
  onConfirm,
  onCancel,
}: {
  plan: TPlan | null;
  isPending: boolean;
  onConfirm: (plan: TPlan) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const name = plan?.displayName ?? '';
  return (
    <Dialog open={plan !== null} onOpenChange={(open) => !open && !isPending && onCancel()}>
      <DialogContent title={t('trialConfirm.title', { plan: name })}>
        <p className="text-sm text-slate-600">{t('trialConfirm.what', { plan: name, days: TRIAL_DAYS })}</p>
        <p className="mt-3 text-sm font-medium text-slate-900">{t('trialConfirm.oncePerMailbox')}</p>
        <div className="mt-6 flex justify-end gap-3">
          <Button variant="secondary" onClick={onCancel} disabled={isPending}>
            {t('trialConfirm.cancel')}
          </Button>
          <Button onClick={() => plan && onConfirm(plan)} isLoading={isPending}>
            {t('trialConfirm.start')}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
