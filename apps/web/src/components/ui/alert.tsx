import type { HTMLAttributes, ReactNode } from 'react';
import { AlertCircle, CheckCircle2, Info } from 'lucide-react';
import { cn } from '@/utils/cn';

const tones = {
  error: { box: 'bg-rose-50 text-rose-800 ring-rose-200', icon: AlertCircle },
  success: { box: 'bg-emerald-50 text-emerald-800 ring-emerald-200', icon: CheckCircle2 },
  info: { box: 'bg-indigo-50 text-indigo-800 ring-indigo-200', icon: Info },
} as const;

export function Alert({
  tone = 'error',
  title,
  children,
  className,
  ...props
}: HTMLAttributes<HTMLDivElement> & { tone?: keyof typeof tones; title?: ReactNode }) {
  const { box, icon: Icon } = tones[tone];
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn('flex gap-3 rounded-lg p-3 text-sm ring-1 ring-inset', box, className)}
      {...props}
    >
      <Icon className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <div className="space-y-1">
        {title && <p className="font-medium">{title}</p>}
        {children && <div>{children}</div>}
      </div>
    </div>
  );
}
