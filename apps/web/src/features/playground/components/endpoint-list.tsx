import { Badge } from '@/components/ui/badge';
import { cn } from '@/utils/cn';
import { categoryTones, type PlaygroundEndpoint } from '../config/endpoints';

/** The endpoints to choose from: name, method, description and category (spec-2 §2). */
export function EndpointList({
  endpoints,
  selectedId,
  onSelect,
}: {
  endpoints: PlaygroundEndpoint[];
  selectedId: string;
  onSelect: (id: string) => void;
}) {
  return (
    <nav aria-label="Endpoints">
      <ul className="space-y-2">
        {endpoints.map((e) => {
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
                    <span className="text-sm font-semibold text-slate-900">{e.name}</span>
                    <Badge tone={categoryTones[e.category]} className="px-2 text-[11px]">
                      {e.category}
                    </Badge>
                  </span>
                  <span className="mt-0.5 flex items-center gap-1.5 font-mono text-xs text-slate-500">
                    <span className="font-semibold text-emerald-700">{e.method}</span>
                    <span className="truncate">{e.id}</span>
                  </span>
                  <span className="mt-1 block text-xs text-slate-600">{e.description}</span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
