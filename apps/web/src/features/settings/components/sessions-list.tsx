import { useState } from 'react';
import { Globe, Laptop, LogOut, Monitor, RefreshCw, Smartphone } from 'lucide-react';
import type { TSession } from '@docflow/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogClose, DialogContent } from '@/components/ui/dialog';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { messages } from '@/config/messages';
import { errorMessage } from '@/lib/api-client';
import { useRevokeAllSessions, useRevokeSession, useSessions } from '@/features/settings/api/sessions';
import { useTranslation } from 'react-i18next';

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const fmt = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
};

function DeviceIcon({ session }: { session: TSession }) {
  const text = `${session.device} ${session.userAgent ?? ''}`.toLowerCase();
  const Icon = /iphone|android|mobile|ipad/.test(text)
    ? Smartphone
    : /mac|windows|linux|chrome os/.test(text)
      ? Laptop
      : Monitor;
  return (
    <span className="grid h-10 w-10 shrink-0 place-items-center rounded-lg bg-slate-100 text-slate-500">
      <Icon className="h-5 w-5" aria-hidden="true" />
    </span>
  );
}

export function SessionsList() {
  const { t } = useTranslation();
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const revokeAll = useRevokeAllSessions();
  const [confirmAll, setConfirmAll] = useState(false);
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  return (
    <Card>
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between sm:space-y-0">
        <div className="space-y-1">
          <CardTitle>{t('sessionsList.activeSessions')}</CardTitle>
          <CardDescription>{t('sessionsList.devicesSignedInToYour')}</CardDescription>
        </div>
        <Button variant="danger-outline" size="sm" disabled={others === 0} onClick={() => setConfirmAll(true)}>
          <LogOut className="h-4 w-4" aria-hidden="true" /> {t('sessionsList.revokeAllOtherSessions')}
        </Button>
      </CardHeader>
      <CardContent className="p-0">
        {sessions.isLoading && (
          <div className="grid place-items-center py-10">
            <Spinner />
          </div>
        )}
        {sessions.isError && (
          <div className="p-6">
            <Alert tone="error" title={messages.store.sessions}>
              <p>{errorMessage(sessions.error, '')}</p>
              <Button variant="secondary" size="sm" className="mt-3" onClick={() => sessions.refetch()}>
                <RefreshCw className="h-4 w-4" aria-hidden="true" /> {t('sessionsList.tryAgain')}
              </Button>
            </Alert>
          </div>
        )}
        {sessions.data && (
          <ul className="divide-y divide-slate-100" aria-label={t('sessionsList.sessions')}>
            {sessions.data.map((s) => (
              <li
                key={s.id}
                className="flex flex-col gap-3 px-6 py-4 sm:flex-row sm:items-center"
                data-testid="session-row"
              >
                <div className="flex min-w-0 flex-1 items-start gap-4">
                  <DeviceIcon session={s} />
                  <div className="min-w-0">
                    <p className="flex flex-wrap items-center gap-2 text-sm font-semibold text-slate-900">
                      <span className="truncate">{s.device}</span>
                      {s.current && <Badge tone="green">{t('sessionsList.thisDevice')}</Badge>}
                    </p>
                    <dl className="mt-1 grid grid-cols-1 gap-x-4 gap-y-0.5 text-xs text-slate-500 sm:grid-cols-3">
                      <div className="flex gap-1">
                        <dt className="flex items-center gap-1">
                          <Globe className="h-3 w-3" aria-hidden="true" />
                          <span className="sr-only">{t('sessionsList.ipAddress')}</span>
                        </dt>
                        <dd>{s.ip ?? t('sessionsList.unknownIp')}</dd>
                      </div>
                      <div className="flex gap-1">
                        <dt>{t('sessionsList.created')}</dt>
                        <dd>{fmt(s.createdAt)}</dd>
                      </div>
                      <div className="flex gap-1">
                        <dt>{t('sessionsList.lastUsed')}</dt>
                        <dd>{fmt(s.lastUsedAt)}</dd>
                      </div>
                    </dl>
                  </div>
                </div>
                {!s.current && (
                  <Button
                    variant="secondary"
                    size="sm"
                    className="self-start sm:self-center"
                    isLoading={revoke.isPending && revoke.variables === s.id}
                    onClick={() => revoke.mutate(s.id)}
                    aria-label={t('sessionsList.revokeSession', { device: s.device })}
                  >
                    {t('sessionsList.revoke')}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <Dialog open={confirmAll} onOpenChange={setConfirmAll}>
        <DialogContent
          title={t('sessionsList.revokeAllOtherSessions2')}
          description={t('sessionsList.everyOtherDeviceSignedIn')}
        >
          <div className="mt-6 flex justify-end gap-3">
            <DialogClose asChild>
              <Button variant="secondary">{t('sessionsList.cancel')}</Button>
            </DialogClose>
            <Button
              variant="danger"
              isLoading={revokeAll.isPending}
              onClick={async () => {
                await revokeAll.mutateAsync().catch(() => undefined);
                setConfirmAll(false);
              }}
            >
              {t('sessionsList.revokeSessions')}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
