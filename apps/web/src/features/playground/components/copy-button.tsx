import { Check, Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useCopy } from '@/hooks/use-copy';
import { cn } from '@/utils/cn';
import { useTranslation } from 'react-i18next';

/** A small copy button whose label turns to "Copied" for a moment (announced to screen readers). */
export function CopyButton({ text, label, className }: { text: string; label: string; className?: string }) {
  const { t } = useTranslation();
  const { copied, copy } = useCopy();
  return (
    <Button
      variant="secondary"
      size="sm"
      className={cn('shrink-0', className)}
      onClick={() => void copy(text)}
      aria-label={label}
    >
      {copied ? (
        <Check className="h-3.5 w-3.5 text-emerald-600" aria-hidden="true" />
      ) : (
        <Copy className="h-3.5 w-3.5" aria-hidden="true" />
      )}
      <span aria-live="polite">{copied ? t('copyButton.copied') : t('copyButton.copy')}</span>
    </Button>
  );
}
