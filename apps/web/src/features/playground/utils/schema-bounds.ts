import { z } from 'zod';

/** What a form control needs to know about one field of a contracts schema. */
export interface SchemaBounds {
  min?: number;
  max?: number;
  /** 1 for integers: the server refuses fractions there. */
  step?: number;
  default?: string | number | boolean;
  options?: string[];
  description?: string;
}

export interface JsonProperty {
  type?: string;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  description?: string;
  pattern?: string;
  format?: string;
  anyOf?: JsonProperty[];
}

export interface JsonObject {
  properties?: Record<string, JsonProperty>;
  required?: string[];
}

const cache = new WeakMap<z.ZodType, JsonObject>();

/** The input side of a schema (what a client may send: coerced numbers, form booleans), as the API documents it. */
export function inputJsonSchema(schema: z.ZodType): JsonObject {
  let js = cache.get(schema);
  if (!js) {
    js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonObject;
    cache.set(schema, js);
  }
  return js;
}

const properties = (schema: z.ZodType): Record<string, JsonProperty> => inputJsonSchema(schema).properties ?? {};

/**
 * Limits, default and choices of `name` in a contracts schema, so the playground offers exactly what the server
 * validates. Throws when the field is missing: a renamed server field must fail the tests, not drift silently.
 */
export function boundsOf(schema: z.ZodType, name: string): SchemaBounds {
  const p = properties(schema)[name];
  if (!p) throw new Error(`the contracts schema has no field "${name}"`);
  const out: SchemaBounds = {};
  if (p.minimum !== undefined) out.min = p.minimum;
  if (p.maximum !== undefined) out.max = p.maximum;
  if (p.type === 'integer') out.step = 1;
  if (typeof p.default === 'string' || typeof p.default === 'number' || typeof p.default === 'boolean')
    out.default = p.default;
  if (p.enum && p.type === 'string') out.options = p.enum.map(String);
  if (p.description) out.description = p.description;
  return out;
}
