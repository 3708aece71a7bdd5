import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { inputClasses } from '@/components/ui/input';

/** A decision with a few words for the customer: declining a plan request (note required), answering a message. */
export function NoteDialog({
  open,
  title,
  description,
  label,
  action,
  required,
  isPending,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  description: string;
  label: string;
  action: string;
  required: boolean;
  isPending: boolean;
  onSubmit: (text: string) => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(o) => !o && !isPending && onClose()}>
      <DialogContent title={title} description={description}>
        <NoteForm
          label={label}
          action={action}
          required={required}
          isPending={isPending}
          onSubmit={onSubmit}
          onClose={onClose}
        />
      </DialogContent>
    </Dialog>
  );
}

/** Mounted each time the dialog opens, so it starts blank. */
function NoteForm({
  label,
  action,
  required,
  isPending,
  onSubmit,
  onClose,
}: {
  label: string;
  action: string;
  required: boolean;
  isPending: boolean;
  onSubmit: (text: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(text.trim());
  };
  return (
    <>
      <form className="mt-5 space-y-4" onSubmit={submit} data-testid="note-form">
        <Field label={label} optional={!required}>
          <textarea
            className={inputClasses}
            rows={4}
            maxLength={5000}
            required={required}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </Field>
        <div className="flex justify-end gap-3 pt-2">
          <Button type="button" variant="secondary" onClick={onClose} disabled={isPending}>
            {t('customerRequests.cancel')}
          </Button>
          <Button type="submit" isLoading={isPending} disabled={required && !text.trim()}>
            {action}
          </Button>
        </div>
      </form>
    </>
  );
}
