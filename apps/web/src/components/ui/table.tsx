import type { ReactNode } from 'react';
import { cn } from '@/utils/cn';

export interface Column {
  label: ReactNode;
  align?: 'left' | 'right';
}

/** A scrollable data table with the dashboard's header style; rows are the children (a tbody's content). */
export function DataTable({
  columns,
  minWidth,
  children,
}: {
  columns: Column[];
  minWidth: number;
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" style={{ minWidth }}>
        <thead>
          <tr className="border-b border-slate-100 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
            {columns.map((c, i) => (
              <th key={i} scope="col" className={cn('px-5 py-3', c.align === 'right' && 'text-right')}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}
