import { useRef, useState, type FormEvent } from 'react';
import { FileKey2, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import {
  fileToBase64,
  useDeleteSigningCertificate,
  useSigningCertificates,
  useStoreSigningCertificate,
} from '@/features/settings/api/signing-certificates';

/**
 * Settings → Signing certificates: the PKCS#12 files POST /pdf/sign takes by `certificateId`, stored encrypted by
 * the server; listed by subject, issuer and expiry, never shown again.
 */
export function SigningCertificatesCard() {
  const { t, i18n } = useTranslation();
  const list = useSigningCertificates();
  const store = useStoreSigningCertificate();
  const remove = useDeleteSigningCertificate();
  const fileInput = useRef<HTMLInputElement>(null);
  const [label, setLabel] = useState('');
  const [password, setPassword] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Expiry is judged against the time the card opened: a render stays what it showed.
  const [openedAt] = useState(() => Date.now());
  const date = (iso: string) => new Date(iso).toLocaleDateString(i18n.language, { dateStyle: 'medium' });
  const full = list.data ? list.data.certificates.length >= list.data.max : false;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!file || !label.trim()) {
      setError(t('signingCertificates.chooseFileAndName'));
      return;
    }
    try {
      await store.mutateAsync({ label: label.trim(), password, pkcs12: await fileToBase64(file) });
      toast.success(t('signingCertificates.stored'));
      setLabel('');
      setPassword('');
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
    } catch (err) {
      setError(errorMessage(err, t('signingCertificates.couldNotStore')));
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('signingCertificates.title')}</CardTitle>
        <CardDescription>{t('signingCertificates.description')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        {list.isLoading && <Spinner />}
        {list.isError && <Alert tone="error">{errorMessage(list.error, t('signingCertificates.couldNotLoad'))}</Alert>}
        {list.data && list.data.certificates.length === 0 && (
          <p className="text-sm text-slate-500">{t('signingCertificates.none')}</p>
        )}
        {list.data && list.data.certificates.length > 0 && (
          <ul
            className="divide-y divide-slate-100 rounded-lg border border-slate-200"
            aria-label={t('signingCertificates.title')}
          >
            {list.data.certificates.map((c) => {
              const expired = Date.parse(c.validTo) < openedAt;
              return (
                <li
                  key={c.id}
                  className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center"
                  data-testid="certificate-row"
                >
                  <FileKey2 className="hidden h-5 w-5 shrink-0 text-slate-400 sm:block" aria-hidden="true" />
                  <div className="min-w-0 flex-1 space-y-1 text-sm">
                    <p className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
                      <span className="break-all">{c.label}</span>
                      {expired ? (
                        <Badge tone="rose">{t('signingCertificates.expired')}</Badge>
                      ) : (
                        <Badge tone="green">{t('signingCertificates.validUntil', { date: date(c.validTo) })}</Badge>
                      )}
                    </p>
                    <p className="break-all text-slate-600">{c.subject}</p>
                    <p className="break-all text-xs text-slate-500">
                      {t('signingCertificates.issuedBy', { issuer: c.issuer })}
                    </p>
                    <p className="break-all font-mono text-xs text-slate-500">certificateId: {c.id}</p>
                  </div>
                  <Button
                    variant="danger-outline"
                    size="sm"
                    className="self-start sm:self-center"
                    isLoading={remove.isPending && remove.variables === c.id}
                    aria-label={t('signingCertificates.deleteNamed', { label: c.label })}
                    onClick={() =>
                      remove.mutate(c.id, {
                        onSuccess: () => toast.success(t('signingCertificates.deleted')),
                        onError: (err) => toast.error(errorMessage(err, t('signingCertificates.couldNotDelete'))),
                      })
                    }
                  >
                    <Trash2 className="h-4 w-4" aria-hidden="true" /> {t('signingCertificates.delete')}
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
        <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={t('signingCertificates.add')}>
          {error && (
            <Alert tone="error" data-testid="certificate-error">
              {error}
            </Alert>
          )}
          <div className="grid gap-4 sm:grid-cols-3">
            <Field label={t('signingCertificates.name')}>
              <Input value={label} maxLength={100} onChange={(e) => setLabel(e.target.value)} />
            </Field>
            <Field label={t('signingCertificates.file')}>
              <Input
                ref={fileInput}
                type="file"
                accept=".p12,.pfx,application/x-pkcs12"
                onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              />
            </Field>
            <Field label={t('signingCertificates.password')}>
              <PasswordInput autoComplete="off" value={password} onChange={(e) => setPassword(e.target.value)} />
            </Field>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" isLoading={store.isPending} disabled={full}>
              {t('signingCertificates.add')}
            </Button>
            {full && list.data && (
              <span className="text-sm text-slate-500">{t('signingCertificates.full', { max: list.data.max })}</span>
            )}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
