import * as Tabs from '@radix-ui/react-tabs';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/utils/cn';
import { API_KEY_ENV, codeLanguages, generateCode, type CodeLanguage } from '../utils/code-samples';
import type { CallPlan } from '../utils/request-plan';
import { CopyButton } from './copy-button';
import { useTranslation } from 'react-i18next';
import type { TKey } from '@/i18n';

const runtimes: Record<CodeLanguage, TKey> = {
  curl: 'codeExamples.runtimes.curl',
  javascript: 'codeExamples.runtimes.javascript',
  python: 'codeExamples.runtimes.python',
};

/** curl, JavaScript and Python for the current endpoint and values, each with a copy button. */
export function CodeExamples({ plan }: { plan: CallPlan }) {
  const { t } = useTranslation();
  return (
    <Card aria-labelledby="pg-code-title" role="region">
      <CardHeader>
        <CardTitle id="pg-code-title">{t('codeExamples.codeExamples')}</CardTitle>
        <CardDescription>
          {t('codeExamples.theSameCallFromYour')} <code className="font-mono text-xs">{API_KEY_ENV}</code>{' '}
          {t('codeExamples.environmentVariable')}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Tabs.Root defaultValue="curl">
          <Tabs.List aria-label={t('codeExamples.language')} className="mb-3 flex gap-1 rounded-lg bg-slate-100 p-1">
            {codeLanguages.map((l) => (
              <Tabs.Trigger
                key={l.id}
                value={l.id}
                className={cn(
                  'flex-1 rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 transition-colors sm:flex-none',
                  'hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600',
                  'data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm',
                )}
              >
                {l.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {codeLanguages.map((l) => {
            const code = generateCode(l.id, plan);
            return (
              <Tabs.Content key={l.id} value={l.id} className="focus-visible:outline-none">
                <div className="mb-2 flex items-center justify-between gap-3">
                  <span className="text-xs text-slate-500">{t(runtimes[l.id])}</span>
                  <CopyButton text={code} label={t('codeExamples.copyExample', { language: l.label })} />
                </div>
                <pre
                  data-testid={`code-${l.id}`}
                  className="overflow-x-auto rounded-xl bg-slate-950 p-4 font-mono text-xs leading-relaxed text-slate-100"
                >
                  <code>{code}</code>
                </pre>
              </Tabs.Content>
            );
          })}
        </Tabs.Root>
      </CardContent>
    </Card>
  );
}
