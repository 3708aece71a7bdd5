import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckCircle2 } from 'lucide-react';
import { ZSupportCategory, type TSupportCategory } from '@docflow/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input, inputClasses } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { errorMessage, fieldErrors } from '@/lib/api-client';
import { useSendSupportMessage } from '../api/support-messages';

/** Write to the support team: the message is stored, the administrators are told, the answer comes back here. */
export function ContactSupportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent title={t('contactSupport.title')} description={t('contactSupport.what')}>
        <SupportMessageForm onClose={onClose} />
      </DialogContent>
    </Dialog>
  );
}

/** Mounted each time the dialog opens, so it starts blank; once sent, it shows that the message was stored. */
function SupportMessageForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const send = useSendSupportMessage();
  const [category, setCategory] = useState<TSupportCategory>('general');
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    send.mutate({ category, subject: subject.trim(), body: body.trim() });
  };
  const errors = send.isError ? fieldErrors(send.error) : {};

  return send.isSuccess ? (
    <div className="mt-5 space-y-4" data-testid="support-message-sent">
      <Alert tone="success" title={t('contactSupport.stored')}>
        {t('contactSupport.storedDetail', { subject: send.data.subject })}
      </Alert>
      <div className="flex justify-end">
        <Button onClick={onClose}>
          <CheckCircle2 className="h-4 w-4" aria-hidden="true" /> {t('contactSupport.done')}
        </Button>
      </div>
    </div>
  ) : (
    <form className="mt-5 space-y-4" onSubmit={submit} data-testid="support-message-form">
      <Field label={t('contactSupport.category')}>
        <Select value={category} onChange={(e) => setCategory(e.target.value as TSupportCategory)}>
          {ZSupportCategory.options.map((c) => (
            <option key={c} value={c}>
              {t(`contactSupport.categories.${c}`)}
            </option>
          ))}
        </Select>
      </Field>
      <Field label={t('contactSupport.subject')} error={errors.subject}>
        <Input value={subject} onChange={(e) => setSubject(e.target.value)} required minLength={3} maxLength={200} />
      </Field>
      <Field label={t('contactSupport.body')} error={errors.body} hint={t('contactSupport.bodyHint')}>
        <textarea
          className={inputClasses}
          rows={6}
          required
          minLength={10}
          maxLength={5000}
          value={body}
          onChange={(e) => setBody(e.target.value)}
        />
      </Field>
      {send.isError && !errors.subject && !errors.body && (
        <Alert tone="error">{errorMessage(send.error, t('contactSupport.failed'))}</Alert>
      )}
      <div className="flex justify-end gap-3 pt-2">
        <Button type="button" variant="secondary" onClick={onClose} disabled={send.isPending}>
          {t('contactSupport.cancel')}
        </Button>
        <Button type="submit" isLoading={send.isPending}>
          {t('contactSupport.send')}
        </Button>
      </div>
    </form>
  );
}
