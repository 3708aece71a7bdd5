import { FileText } from 'lucide-react';
import { cn } from '@/utils/cn';
import { useTranslation } from 'react-i18next';

export function Logo({ className, dark = false }: { className?: string; dark?: boolean }) {
  const { t } = useTranslation();
  return (
    <span
      className={cn(
        'inline-flex items-center gap-2 font-bold tracking-tight',
        dark ? 'text-white' : 'text-slate-900',
        className,
      )}
    >
      <span className="grid h-8 w-8 place-items-center rounded-lg bg-gradient-to-br from-indigo-500 to-violet-600 text-white shadow-sm">
        <FileText className="h-4 w-4" aria-hidden="true" />
      </span>
      <span className="text-lg">{t('logo.docflow')}</span>
    </span>
  );
}
