import type { ReactNode } from 'react';
import { cn } from '@/utils/cn';

/** A titled white card of the analytics and dashboard pages. */
export function SectionCard({
  title,
  description,
  action,
  children,
  className,
  bodyClassName,
}: {
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  children: ReactNode;
  className?: string;
  bodyClassName?: string;
}) {
  return (
    <section
      data-card=""
      // min-w-0: in a grid, truncated content (a long key name) must not widen the card past its column.
      className={cn('flex min-w-0 flex-col rounded-2xl border border-slate-200 bg-white shadow-sm', className)}
      aria-label={title}
    >
      <header className="flex items-start justify-between gap-3 border-b border-slate-100 px-5 py-4">
        <div>
          <h2 className="font-semibold text-slate-900">{title}</h2>
          {description && <p className="mt-0.5 text-sm text-slate-500">{description}</p>}
        </div>
        {action}
      </header>
      <div className={cn('flex-1 p-5', bodyClassName)}>{children}</div>
    </section>
  );
}
