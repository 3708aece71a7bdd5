import { i18n } from '@/i18n';

type Tree = { readonly [k: string]: string | Tree };

/**
 * A table of texts for code outside components (toasts of mutations, spec message tables): the same tree, each text
 * read from the catalogue of the current language when it is used, so a table built at import still follows a
 * language change.
 */
export function localised<T extends Tree>(node: T, path: string): T {
  const out = {} as Record<string, unknown>;
  for (const [k, v] of Object.entries(node)) {
    const key = `${path}.${k}`;
    if (typeof v === 'string') Object.defineProperty(out, k, { enumerable: true, get: () => i18n.t(key as never) });
    else out[k] = localised(v, key);
  }
  return out as T;
}

/** A text of the catalogue, in the current language, with its parameters: for code outside components. */
export const tr = (key: string, params?: Record<string, unknown>): string =>
  String(i18n.t(key as never, params as never));
