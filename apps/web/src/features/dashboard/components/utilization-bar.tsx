import { cn } from '@/utils/cn';

/** A 0-100 % bar: green, then amber from 70 %, red from 90 %. */
export function UtilizationBar({ percent, label }: { percent: number; label: string }) {
  const tone = percent < 70 ? 'bg-emerald-500' : percent < 90 ? 'bg-amber-400' : 'bg-rose-500';
  const width = Math.min(100, Math.max(0, percent));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(width)}
      className="h-2 overflow-hidden rounded-full bg-slate-100"
    >
      <div className={cn('h-full rounded-full', tone)} style={{ width: `${width}%` }} />
    </div>
  );
}
