import { findCatalogueEntry, type TCatalogueGroup } from '@docflow/contracts';

/**
 * Spec-2 §2 "Usage by category": the endpoint groups the analytics page totals. Which group an endpoint is in comes
 * from the contracts' endpoint catalogue (or, for a path it no longer lists, the group the server metered it under).
 */
export const usageCategories = [
  { id: 'pdf', label: 'PDF Operations', groups: ['pdf'] },
  { id: 'conversion', label: 'Document Conversion', groups: ['conversion', 'batch'] },
  { id: 'qrcode', label: 'QR Code', groups: ['qrcode'] },
  { id: 'ocr', label: 'OCR', groups: ['ocr'] },
] as const satisfies ReadonlyArray<{ id: string; label: string; groups: readonly TCatalogueGroup[] }>;

export type UsageCategoryId = (typeof usageCategories)[number]['id'] | 'other';

export interface EndpointUsage {
  path: string;
  group?: string;
  requests: number;
  successRate: number;
  avgResponseTime?: number;
}

export interface CategoryUsage {
  id: UsageCategoryId;
  label: string;
  requests: number;
  /** Percent of all requests of the period. */
  share: number;
  endpoints: EndpointUsage[];
}

/** The category of a path by its endpoint group (`/pdf/merge` → pdf); batch conversion counts as conversion. */
export function categoryOf(path: string, meteredGroup?: string): UsageCategoryId {
  const group = findCatalogueEntry(path)?.group ?? meteredGroup;
  for (const c of usageCategories) if ((c.groups as readonly string[]).includes(group ?? '')) return c.id;
  return 'other';
}

export function toEndpointList(byEndpoint: Record<string, Omit<EndpointUsage, 'path'>>): EndpointUsage[] {
  return Object.entries(byEndpoint).map(([path, v]) => ({ path, ...v }));
}

/**
 * Totals per category, each with its endpoints by requests. The four categories always appear (zero included);
 * anything else (key checks such as /ping, jobs) is grouped under Other, shown only when used.
 */
export function groupByCategory(endpoints: readonly EndpointUsage[]): CategoryUsage[] {
  const total = endpoints.reduce((s, e) => s + e.requests, 0);
  const rows: CategoryUsage[] = [
    ...usageCategories.map((c) => ({
      id: c.id as UsageCategoryId,
      label: c.label,
      requests: 0,
      share: 0,
      endpoints: [] as EndpointUsage[],
    })),
    { id: 'other', label: 'Other', requests: 0, share: 0, endpoints: [] },
  ];
  for (const e of endpoints) {
    const row = rows.find((r) => r.id === categoryOf(e.path, e.group))!;
    row.requests += e.requests;
    row.endpoints.push(e);
  }
  for (const r of rows) {
    r.share = total > 0 ? (r.requests / total) * 100 : 0;
    r.endpoints.sort((a, b) => b.requests - a.requests);
  }
  return rows.filter((r) => r.id !== 'other' || r.requests > 0);
}

/** The busiest endpoints first. */
export function topEndpoints(endpoints: readonly EndpointUsage[], n = 8): EndpointUsage[] {
  return [...endpoints].sort((a, b) => b.requests - a.requests || a.path.localeCompare(b.path)).slice(0, n);
}
