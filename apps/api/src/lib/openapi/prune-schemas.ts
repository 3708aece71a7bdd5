/**
 * The document without the component schemas nothing refers to. zod's registry holds every schema with an id, in an
 * input and an output form; only the ones the operations use (directly or through another schema) belong in it.
 */
export function pruneUnusedSchemas<T extends object>(document: T): T {
  const doc = document as { components?: { schemas?: Record<string, unknown> } };
  const schemas = doc.components?.schemas;
  if (!schemas) return document;
  const refsIn = (value: unknown): string[] =>
    [...JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => decodeURIComponent(m[1]!));

  const used = new Set<string>();
  const pending = refsIn({ ...doc, components: { ...doc.components, schemas: {} } });
  while (pending.length) {
    const name = pending.pop()!;
    if (used.has(name) || !(name in schemas)) continue;
    used.add(name);
    pending.push(...refsIn(schemas[name]));
  }
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return { ...document, components: { ...doc.components, schemas: kept } };
}
