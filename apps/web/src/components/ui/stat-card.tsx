import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { cn } from '@/utils/cn';

const tones = {
  indigo: 'bg-indigo-50 text-indigo-600',
  green: 'bg-emerald-50 text-emerald-600',
  amber: 'bg-amber-50 text-amber-600',
  violet: 'bg-violet-50 text-violet-600',
  sky: 'bg-sky-50 text-sky-600',
  rose: 'bg-rose-50 text-rose-600',
} as const;

export interface StatCardProps {
  label: string;
  value: ReactNode;
  icon: LucideIcon;
  hint?: ReactNode;
  tone?: keyof typeof tones;
  className?: string;
}

export function StatCard({ label, value, icon: Icon, hint, tone = 'indigo', className }: StatCardProps) {
  return (
    <div
      className={cn('rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5', className)}
      data-testid="stat-card"
      data-card=""
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-xs font-medium text-slate-500 sm:text-sm">{label}</p>
          <p className="mt-2 truncate text-xl font-bold tracking-tight text-slate-900 tabular-nums sm:text-2xl">
            {value}
          </p>
        </div>
        <span className={cn('hidden h-10 w-10 shrink-0 place-items-center rounded-xl min-[420px]:grid', tones[tone])}>
          <Icon className="h-5 w-5" aria-hidden="true" />
        </span>
      </div>
      {hint && <div className="mt-3 text-xs text-slate-500">{hint}</div>}
    </div>
  );
}

export function StatCardSkeleton() {
  return (
    <div className="animate-pulse rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5" aria-hidden="true">
      <div className="h-4 w-24 rounded bg-slate-200" />
      <div className="mt-3 h-7 w-20 rounded bg-slate-200" />
      <div className="mt-4 h-3 w-32 rounded bg-slate-100" />
    </div>
  );
}
