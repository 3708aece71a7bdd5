import type { ReactNode } from 'react';
import { Button } from './button';

/** The foot of a paged table: where the reader is, and the previous and next pages. */
export function Pager({
  page,
  totalPages,
  onPage,
  previous,
  next,
  children,
  testId,
}: {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  previous: string;
  next: string;
  /** The position, in the page's own words ("Page 2 / 5 · 93 entries"). */
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div className="flex items-center justify-between border-t border-slate-100 px-5 py-3 text-sm text-slate-600">
      <span data-testid={testId}>{children}</span>
      <div className="flex gap-2">
        <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          {previous}
        </Button>
        <Button size="sm" variant="secondary" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
          {next}
        </Button>
      </div>
    </div>
  );
}
