import type { ReactNode } from 'react';
import { Lock } from 'lucide-react';
import { Card, CardContent } from './card';

/** What a page shows a role it is not for (the server refuses the same calls: this only says so). */
export function RestrictedCard({ testId, title, children }: { testId: string; title: string; children: ReactNode }) {
  return (
    <Card data-testid={testId}>
      <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
        <Lock className="h-8 w-8 text-slate-400" aria-hidden="true" />
        <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
        <p className="text-sm text-slate-600">{children}</p>
      </CardContent>
    </Card>
  );
}
