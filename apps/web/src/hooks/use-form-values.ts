import { useState, type ChangeEvent } from 'react';
import type { z } from 'zod';
import { validate, type FieldErrors } from '@/lib/auth/form-schemas';
import { fieldErrors } from '@/lib/api-client';

type StringKeys<T> = { [K in keyof T]: T[K] extends string | undefined ? K : never }[keyof T] & string;

/**
 * The state every form here keeps: values, the first error of each field (cleared as the field is edited), and a
 * submit-time check against the same zod schema as the API.
 */
export function useFormValues<T extends Record<string, unknown>>(schema: z.ZodType, initial: T) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<FieldErrors<T>>({});

  const set = <K extends keyof T>(key: K, value: T[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => (e[key as keyof FieldErrors<T>] ? { ...e, [key]: undefined } : e));
  };

  /** Props of a text control bound to `key`. */
  const bind = (key: StringKeys<T>) => ({
    name: key,
    value: (values[key] as string | undefined) ?? '',
    onChange: (e: ChangeEvent<HTMLInputElement>) => set(key, e.target.value as T[typeof key]),
  });

  /** True when the values pass the schema; otherwise the errors are shown. */
  const check = (): boolean => {
    const found = validate(schema, values);
    if (found) setErrors(found as FieldErrors<T>);
    return !found;
  };

  /** Show the server's field errors (a 422's details.fields) beside the form's fields; false when it named none. */
  const showServerErrors = (err: unknown): boolean => {
    const found = Object.entries(fieldErrors(err)).filter(([k]) => k in initial);
    if (found.length > 0) setErrors(Object.fromEntries(found) as FieldErrors<T>);
    return found.length > 0;
  };

  return { values, errors, set, bind, check, showServerErrors, reset: () => setValues(initial) };
}
