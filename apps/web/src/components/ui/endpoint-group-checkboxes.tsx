import type { TEndpointGroup } from '@docflow/contracts';
import { useTranslation } from 'react-i18next';

/** One checkbox per endpoint group (plans and custom keys allow a subset of them). */
export function EndpointGroupCheckboxes({
  groups,
  value,
  onChange,
}: {
  groups: readonly TEndpointGroup[];
  value: readonly string[];
  onChange: (next: TEndpointGroup[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{t('endpointGroupCheckboxes.allowedEndpoints')}</legend>
      <div className="mt-2 flex flex-wrap gap-3">
        {groups.map((g) => (
          <label key={g} className="flex items-center gap-1.5 text-sm text-slate-700">
            <input
              type="checkbox"
              className="h-4 w-4 accent-indigo-600"
              checked={value.includes(g)}
              onChange={(e) =>
                onChange((e.target.checked ? [...value, g] : value.filter((x) => x !== g)) as TEndpointGroup[])
              }
            />
            {g}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
