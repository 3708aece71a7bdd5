import { Check, Loader2, X } from 'lucide-react';
import type { TPasswordValidation } from '@docflow/contracts';
import { usePasswordStrength } from '@/hooks/use-password-strength';
import { cn } from '@/utils/cn';
import { useTranslation } from 'react-i18next';
import type { TKey } from '@/i18n';

const levels: Record<TPasswordValidation['strength'], { bar: string; text: string }> = {
  very_weak: { bar: 'bg-rose-500', text: 'text-rose-600' },
  weak: { bar: 'bg-orange-500', text: 'text-orange-600' },
  fair: { bar: 'bg-amber-500', text: 'text-amber-600' },
  strong: { bar: 'bg-emerald-500', text: 'text-emerald-600' },
  very_strong: { bar: 'bg-emerald-600', text: 'text-emerald-700' },
};

const requirementLabels: Record<keyof TPasswordValidation['requirements'], TKey> = {
  minLength: 'passwordStrength.requirements.minLength',
  lowercase: 'passwordStrength.requirements.lowercase',
  uppercase: 'passwordStrength.requirements.uppercase',
  number: 'passwordStrength.requirements.number',
  special: 'passwordStrength.requirements.special',
  notCommon: 'passwordStrength.requirements.notCommon',
  notPersonal: 'passwordStrength.requirements.notPersonal',
};

/** Live password-strength meter fed by POST /auth/validate-password (debounced). */
export function PasswordStrength({
  password,
  email,
  name,
  id,
}: {
  password: string;
  email?: string;
  name?: string;
  id?: string;
}) {
  const { t } = useTranslation();
  const { validation, isChecking } = usePasswordStrength(password, { email, name });
  if (!password) return null;
  const level = validation ? levels[validation.strength] : undefined;
  const filled = validation ? validation.score + 1 : 0; // score 0..4 → 1..5 segments
  return (
    <div id={id} className="space-y-2 rounded-lg bg-slate-50 p-3 ring-1 ring-inset ring-slate-200" aria-live="polite">
      <div className="flex items-center justify-between text-xs">
        <span className="font-medium text-slate-600">{t('passwordStrength.passwordStrength')}</span>
        <span
          className={cn('flex items-center gap-1 font-semibold', level?.text ?? 'text-slate-400')}
          data-testid="password-strength-label"
        >
          {isChecking && <Loader2 className="h-3 w-3 animate-spin" aria-hidden="true" />}
          {level
            ? `${t(`passwordStrength.levels.${validation!.strength}`)} (${validation!.score}/4)`
            : t('passwordStrength.checking')}
        </span>
      </div>
      <div className="grid grid-cols-5 gap-1" aria-hidden="true">
        {Array.from({ length: 5 }, (_, i) => (
          <div
            key={i}
            className={cn('h-1.5 rounded-full transition-colors', i < filled && level ? level.bar : 'bg-slate-200')}
          />
        ))}
      </div>
      {validation && (
        <>
          <ul className="grid grid-cols-1 gap-x-3 gap-y-1 text-xs sm:grid-cols-2">
            {(Object.keys(requirementLabels) as Array<keyof typeof requirementLabels>).map((k) => {
              const ok = validation.requirements[k];
              return (
                <li key={k} className={cn('flex items-center gap-1.5', ok ? 'text-emerald-700' : 'text-slate-500')}>
                  {ok ? <Check className="h-3 w-3" aria-hidden="true" /> : <X className="h-3 w-3" aria-hidden="true" />}
                  <span>
                    {t(requirementLabels[k])}
                    <span className="sr-only">{ok ? ' (met)' : ' (not met)'}</span>
                  </span>
                </li>
              );
            })}
          </ul>
          {validation.feedback.length > 0 && (
            <ul className="list-disc space-y-0.5 pl-4 text-xs text-slate-600">
              {validation.feedback.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
