import { useId, type ReactElement, type ReactNode } from 'react';
import { cloneElement } from 'react';
import { Label } from './label';
import { cn } from '@/utils/cn';
import { useTranslation } from 'react-i18next';

export interface FieldProps {
  label: ReactNode;
  /** The control; it receives id, aria-invalid and aria-describedby. */
  children: ReactElement<Record<string, unknown>>;
  error?: string | null;
  hint?: ReactNode;
  optional?: boolean;
  className?: string;
  /** Something at the right of the label row (e.g. a "Forgot password?" link). */
  aside?: ReactNode;
  id?: string;
}

/** A labelled form control with its error message, wired for screen readers. */
export function Field({ label, children, error, hint, optional, className, aside, id }: FieldProps) {
  const { t } = useTranslation();
  const auto = useId();
  const controlId = id ?? `field-${auto}`;
  const errorId = `${controlId}-error`;
  const hintId = `${controlId}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('space-y-1.5', className)}>
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={controlId}>
          {label}
          {optional && <span className="ml-1 font-normal text-slate-400">{t('field.optional')}</span>}
        </Label>
        {aside}
      </div>
      {cloneElement(children, {
        id: controlId,
        invalid: error ? true : undefined,
        'aria-describedby': describedBy,
      })}
      {hint && !error && (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-rose-600" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
