import { Wrench } from 'lucide-react';
import { useServiceStatus } from '../api/monitor';
import { useTranslation } from 'react-i18next';

/** Every signed-in page: the maintenance message while processing is paused (GET /status, every 30 s). */
export function MaintenanceBanner() {
  const { t } = useTranslation();
  const status = useServiceStatus();
  if (!status.data?.enabled) return null;
  return (
    <div
      role="status"
      data-testid="maintenance-banner"
      className="mb-6 flex items-center gap-2 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200"
    >
      <Wrench className="h-4 w-4 shrink-0" aria-hidden="true" />
      <span>
        <strong>{t('maintenanceBanner.maintenance')}</strong> {status.data.message ?? t('maintenanceBanner.fallback')}
      </span>
    </div>
  );
}
