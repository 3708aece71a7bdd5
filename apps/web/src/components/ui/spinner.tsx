import { Loader2 } from 'lucide-react';
import { cn } from '@/utils/cn';

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex items-center">
      <Loader2 className={cn('h-6 w-6 animate-spin text-indigo-600', className)} aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </span>
  );
}
