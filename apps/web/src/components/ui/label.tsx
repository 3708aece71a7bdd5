import type { LabelHTMLAttributes } from 'react';
import { cn } from '@/utils/cn';

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  // eslint-disable-next-line jsx-a11y/label-has-associated-control -- htmlFor comes through props
  return <label className={cn('block text-sm font-medium text-slate-700', className)} {...props} />;
}
