import * as CheckboxPrimitive from '@radix-ui/react-checkbox';
import { Check } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '@/utils/cn';

export function Checkbox({
  className,
  invalid,
  ...rest
}: ComponentProps<typeof CheckboxPrimitive.Root> & { invalid?: boolean }) {
  return (
    <CheckboxPrimitive.Root
      className={cn(
        'peer inline-flex h-4 w-4 shrink-0 items-center justify-center rounded border border-slate-300 bg-white shadow-sm',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
        'data-[state=checked]:border-indigo-600 data-[state=checked]:bg-indigo-600 data-[state=checked]:text-white',
        invalid && 'border-rose-400',
        className,
      )}
      aria-invalid={invalid || undefined}
      {...rest}
    >
      <CheckboxPrimitive.Indicator>
        <Check className="h-3 w-3" strokeWidth={3} aria-hidden="true" />
      </CheckboxPrimitive.Indicator>
    </CheckboxPrimitive.Root>
  );
}
