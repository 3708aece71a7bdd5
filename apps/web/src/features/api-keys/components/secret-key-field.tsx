import { useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import { copyToClipboard } from '../utils/copy-to-clipboard';
import { keyMessages } from '../utils/messages';
import { useTranslation } from 'react-i18next';

/** The full secret, shown once, with a copy button and the spec's copy toasts. */
export function SecretKeyField({
  value,
  copyLabel,
  copiedLabel,
  copyAriaLabel,
}: {
  value: string;
  copyLabel?: string;
  copiedLabel?: string;
  copyAriaLabel?: string;
}) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await copyToClipboard(value);
      setCopied(true);
      toast.success(keyMessages.copied);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error(keyMessages.copyFailed);
    }
  };
  return (
    <div className="flex items-stretch gap-2">
      <code
        data-testid="secret-api-key"
        className="min-w-0 flex-1 select-all break-all rounded-lg bg-slate-900 px-3 py-2.5 font-mono text-sm text-emerald-300"
      >
        {value}
      </code>
      <Button
        variant="secondary"
        onClick={() => void copy()}
        className="h-auto shrink-0"
        aria-label={copyAriaLabel ?? t('secretKeyField.copyApiKey')}
      >
        {copied ? (
          <Check className="h-4 w-4 text-emerald-600" aria-hidden="true" />
        ) : (
          <Copy className="h-4 w-4" aria-hidden="true" />
        )}
        <span className="hidden sm:inline">
          {copied ? (copiedLabel ?? t('secretKeyField.copied')) : (copyLabel ?? t('secretKeyField.copy'))}
        </span>
      </Button>
    </div>
  );
}
