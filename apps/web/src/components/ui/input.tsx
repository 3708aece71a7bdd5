import type { InputHTMLAttributes, Ref } from 'react';
import { cn } from '@/utils/cn';

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  invalid?: boolean;
  ref?: Ref<HTMLInputElement>;
}

export const inputClasses =
  'block w-full rounded-lg border-0 bg-white px-3 py-2.5 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 ' +
  'placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none ' +
  'disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500';

export function Input({ className, invalid, ...props }: InputProps) {
  return (
    <input
      className={cn(inputClasses, invalid && 'ring-rose-400 focus:ring-rose-500', className)}
      aria-invalid={invalid || undefined}
      {...props}
    />
  );
}
