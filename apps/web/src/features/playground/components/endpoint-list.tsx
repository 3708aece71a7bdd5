import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Input } from '@/components/ui/input';
import { cn } from '@/utils/cn';
import { categoryTones, type PlaygroundEndpoint } from '../config/endpoints';
import { useTranslation } from 'react-i18next';
import { usePlaygroundText } from '../utils/playground-text';

/** Every word of the query in what the list shows of the endpoint (its name and description as read). */
const matches = (e: PlaygroundEndpoint, query: string, read: (text: string) => string) =>
  query
    .split(/\s+/)
    .every((word) =>
      `${read(e.name)} ${e.name} ${e.id} ${read(e.description)} ${e.category}`.toLowerCase().includes(word),
    );

/**
 * The endpoints to choose from: name, method, description and category (spec-2 §2). Every endpoint of the API is
 * here, so a filter narrows the list, and on wide screens the list scrolls beside the form.
 */
export function EndpointList({
  endpoints,
  selectedId,
  onSelect,
}: {
  endpoints: PlaygroundEndpoint[];
  selectedId: string;
  onSelect: (id: string) => void;
}) {
  const { t } = useTranslation();
  const pt = usePlaygroundText();
  const [query, setQuery] = useState('');
  const q = query.trim().toLowerCase();
  const shown = q ? endpoints.filter((e) => matches(e, q, pt)) : endpoints;
  return (
    <nav
      aria-label={t('endpointList.endpoints')}
      className="lg:sticky lg:top-20 lg:flex lg:max-h-[calc(100vh-6rem)] lg:flex-col"
    >
      <Input
        type="search"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        placeholder={t('endpointList.filterPlaceholder', { count: endpoints.length })}
        aria-label={t('endpointList.filterLabel')}
        className="mb-3"
      />
      {shown.length === 0 && <p className="text-sm text-slate-500">{t('endpointList.noMatch', { query })}</p>}
      <ul className="space-y-2 lg:min-h-0 lg:flex-1 lg:overflow-y-auto lg:pr-1">
        {shown.map((e) => {
          const selected = e.id === selectedId;
          return (
            <li key={e.id}>
              <button
                type="button"
                onClick={() => onSelect(e.id)}
                aria-pressed={selected}
                data-testid="endpoint-option"
                className={cn(
                  'flex w-full gap-3 rounded-xl border p-3 text-left transition-colors',
                  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
                  selected
                    ? 'border-indigo-300 bg-indigo-50/70 ring-1 ring-inset ring-indigo-200'
                    : 'border-slate-200 bg-white hover:border-slate-300 hover:bg-slate-50',
                )}
              >
                <span
                  className={cn(
                    'grid h-9 w-9 shrink-0 place-items-center rounded-lg',
                    selected ? 'bg-indigo-600 text-white' : 'bg-slate-100 text-slate-600',
                  )}
                >
                  <e.icon className="h-4.5 w-4.5" aria-hidden="true" />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <span className="text-sm font-semibold text-slate-900">{pt(e.name)}</span>
                    <Badge tone={categoryTones[e.category]} className="px-2 text-[11px]">
                      {e.category}
                    </Badge>
                  </span>
                  <span className="mt-0.5 flex items-center gap-1.5 font-mono text-xs text-slate-500">
                    <span className="font-semibold text-emerald-700">{e.method}</span>
                    <span className="truncate">{e.id}</span>
                  </span>
                  <span className="mt-1 block text-xs text-slate-600">{pt(e.description)}</span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
