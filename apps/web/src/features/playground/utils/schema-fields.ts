import type { z } from 'zod';
import type { PlaygroundField } from '../config/endpoints';
import { inputJsonSchema, type JsonProperty } from './schema-bounds';

/** `pageRange` → "Page range". */
export const labelOf = (name: string): string => {
  const words = name.replace(/([a-z\d])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const isColour = (p: JsonProperty) => p.type === 'string' && (p.pattern?.startsWith('^#(') ?? false);

/** The string choices a property takes: its enum, or the string enum of a union (numbers sent as form text). */
function choicesOf(p: JsonProperty): string[] | undefined {
  if (p.enum && p.type === 'string') return p.enum.map(String);
  const strings = p.anyOf?.find((a) => a.type === 'string' && a.enum);
  if (strings && !p.anyOf?.some((a) => a.type === 'boolean')) return strings.enum!.map(String);
  return undefined;
}

const isBoolean = (p: JsonProperty) => p.type === 'boolean' || (p.anyOf?.some((a) => a.type === 'boolean') ?? false);

/**
 * One form control per field of a contracts schema: its type, bounds, choices, default and help text read from the
 * schema the server validates with, so an endpoint with no hand-written form still gets an exact one. A boolean with
 * no default is a three-way choice, because the server tells "absent" from false (e.g. `javascript`).
 */
export function fieldsOfSchema(schema: z.ZodType): PlaygroundField[] {
  const js = inputJsonSchema(schema);
  const required = new Set(js.required ?? []);
  return Object.entries(js.properties ?? {}).map(([name, p]): PlaygroundField => {
    const base = {
      name,
      label: labelOf(name),
      description: p.description ?? '',
      ...(required.has(name) ? { required: true } : {}),
    };
    const def = typeof p.default === 'string' || typeof p.default === 'number' || typeof p.default === 'boolean';
    const withDefault = def ? { default: p.default as string | number | boolean } : {};
    if (isBoolean(p)) {
      if (typeof p.default === 'boolean') return { ...base, type: 'checkbox', default: p.default };
      return { ...base, type: 'select', options: ['true', 'false'] };
    }
    const options = choicesOf(p);
    if (options) return { ...base, type: 'select', options, ...withDefault };
    if (p.type === 'number' || p.type === 'integer')
      return {
        ...base,
        type: 'number',
        ...(p.minimum !== undefined ? { min: p.minimum } : {}),
        ...(p.maximum !== undefined ? { max: p.maximum } : {}),
        ...(p.type === 'integer' ? { step: 1 } : {}),
        ...withDefault,
      };
    if (isColour(p)) return { ...base, type: 'color', ...withDefault };
    if (name === 'url' || p.format === 'uri') return { ...base, type: 'url', ...withDefault };
    if (name === 'email' || p.format === 'email') return { ...base, type: 'email', ...withDefault };
    return {
      ...base,
      type: 'text',
      ...withDefault,
      ...(p.format === 'date-time' ? { placeholder: '2026-01-31T09:00:00Z' } : {}),
    };
  });
}
