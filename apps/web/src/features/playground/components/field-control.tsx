import type { ChangeEvent } from 'react';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Checkbox } from '@/components/ui/checkbox';
import { cn } from '@/utils/cn';
import type { PlaygroundField } from '../config/endpoints';
import { useTranslation } from 'react-i18next';
import { usePlaygroundText } from '../utils/playground-text';

/** Props the Field wrapper hands its control. */
interface ControlProps {
  id?: string;
  invalid?: boolean;
  'aria-describedby'?: string;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1_048_576) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1_048_576).toFixed(1)} MB`;
}

function FileInput({
  field,
  files,
  onFiles,
  invalid,
  ...rest
}: ControlProps & { field: PlaygroundField; files: File[]; onFiles: (files: File[]) => void }) {
  const { t } = useTranslation();
  return (
    <div>
      <input
        {...rest}
        type="file"
        name={field.name}
        accept={field.accept}
        multiple={field.type === 'files'}
        required={field.required}
        aria-invalid={invalid || undefined}
        onChange={(e: ChangeEvent<HTMLInputElement>) => onFiles(Array.from(e.target.files ?? []))}
        className={cn(
          'block w-full rounded-lg text-sm text-slate-600 ring-1 ring-inset ring-slate-300',
          'file:mr-3 file:cursor-pointer file:rounded-l-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2.5',
          'file:text-sm file:font-semibold file:text-slate-700 hover:file:bg-slate-200',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
          invalid && 'ring-rose-400',
        )}
      />
      {files.length > 0 && (
        <ul
          className="mt-2 space-y-1 text-xs text-slate-600"
          aria-label={t('fieldControl.chosen', { field: field.label })}
        >
          {files.map((f, i) => (
            <li key={`${f.name}-${i}`} className="flex justify-between gap-3">
              <span className="min-w-0 truncate font-mono">{f.name}</span>
              <span className="shrink-0 text-slate-400">{formatBytes(f.size)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The picker only takes #rrggbb. */
const pickerValue = (v: string) => {
  if (/^#[\da-f]{6}$/i.test(v)) return v.toLowerCase();
  const short = /^#([\da-f])([\da-f])([\da-f])$/i.exec(v);
  return short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase() : '#000000';
};

function ColorInput({
  field,
  value,
  onValue,
  invalid,
  id,
  ...rest
}: ControlProps & { field: PlaygroundField; value: string; onValue: (v: string) => void }) {
  return (
    <div className="flex items-center gap-2">
      <input
        {...rest}
        id={id}
        type="color"
        name={field.name}
        value={pickerValue(value)}
        onChange={(e) => onValue(e.target.value)}
        className="h-10 w-12 shrink-0 cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
      />
      <Input
        value={value}
        onChange={(e) => onValue(e.target.value)}
        aria-label={`${field.label} (hex)`}
        invalid={invalid}
        className="font-mono"
        spellCheck={false}
        placeholder={typeof field.default === 'string' ? field.default : '#000000'}
      />
    </div>
  );
}

function RequiredMark() {
  return (
    <span aria-hidden="true" className="ml-0.5 text-rose-600">
      *
    </span>
  );
}

/** One form control for a field definition, with its label (starred when required), help text and error. */
export function FieldControl({
  field: given,
  value,
  files,
  error,
  onValue,
  onFiles,
}: {
  field: PlaygroundField;
  value: string | boolean | undefined;
  files: File[];
  error?: string;
  onValue: (v: string | boolean) => void;
  onFiles: (files: File[]) => void;
}) {
  const { t } = useTranslation();
  const pt = usePlaygroundText();
  const field = { ...given, label: pt(given.label), description: pt(given.description) };
  const id = `pg-field-${field.name}`;
  if (field.type === 'checkbox') {
    return (
      <div className="flex gap-3 sm:col-span-2">
        <Checkbox
          id={id}
          name={field.name}
          checked={value === true}
          onCheckedChange={(c) => onValue(c === true)}
          aria-describedby={`${id}-hint`}
          className="mt-0.5"
        />
        <div>
          <label htmlFor={id} className="text-sm font-medium text-slate-700">
            {field.label}
          </label>
          <p id={`${id}-hint`} className="text-xs text-slate-500">
            {field.description}
          </p>
        </div>
      </div>
    );
  }

  const label = (
    <>
      {field.label}
      {field.required && <RequiredMark />}
    </>
  );
  const text = typeof value === 'string' ? value : '';
  const wide = field.type === 'file' || field.type === 'files' || field.type === 'url' || field.name === 'text';
  let control;
  switch (field.type) {
    case 'file':
    case 'files':
      control = <FileInput field={field} files={files} onFiles={onFiles} />;
      break;
    case 'color':
      control = <ColorInput field={field} value={text} onValue={onValue} />;
      break;
    case 'select':
      control = (
        <Select name={field.name} value={text} onChange={(e) => onValue(e.target.value)} required={field.required}>
          {!field.required && !field.options?.includes(text) && <option value="">—</option>}
          {field.options?.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </Select>
      );
      break;
    case 'number':
      control = (
        <Input
          type="number"
          name={field.name}
          inputMode="decimal"
          min={field.min}
          max={field.max}
          step={field.step ?? 'any'}
          value={text}
          required={field.required}
          placeholder={field.placeholder}
          onChange={(e) => onValue(e.target.value)}
        />
      );
      break;
    default:
      control = (
        <Input
          type={field.type}
          name={field.name}
          value={text}
          required={field.required}
          placeholder={field.placeholder}
          autoComplete="off"
          spellCheck={field.type === 'text' ? undefined : false}
          onChange={(e) => onValue(e.target.value)}
        />
      );
  }
  const range =
    field.type === 'number' && (field.min !== undefined || field.max !== undefined)
      ? ` ${t('fieldControl.range', { min: field.min ?? '…', max: field.max ?? '…' })}`
      : '';
  return (
    <Field
      id={id}
      label={label}
      error={error}
      hint={`${field.description}${range}`}
      className={cn(wide && 'sm:col-span-2')}
    >
      {control}
    </Field>
  );
}
