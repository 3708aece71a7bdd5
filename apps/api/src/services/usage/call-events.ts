import type { TEndpointGroup } from '@docflow/contracts';
import type { UsageEvent } from './meter';

/**
 * One stage of a call that counts as several (POST /pipeline's stages, a Gotenberg route's files): metered as its
 * endpoint, one usage event each. `statusCode`/`errorCode` null: the call's own (the stage never ran: an earlier one
 * failed). `durationMs`/`bytesOut` null: a share of the call's (its time split evenly; its output and pages on the
 * first such stage), for stages that run together and are not timed apart.
 */
export interface StageUsage {
  endpoint: string;
  group: TEndpointGroup;
  statusCode: number | null;
  errorCode: string | null;
  durationMs: number | null;
  bytesIn: number;
  bytesOut: number | null;
  pages: number | null;
}

/** How a call ended, as every door knows it: a synchronous answer, or a job's run. */
export interface CallFacts extends Omit<UsageEvent, 'createdAt'> {
  /** Its stages, when it is metered as several endpoints. */
  stages?: StageUsage[];
}

/** The usage events of one call: its own, or one per stage (the call's time, output and pages shared out). */
export function callUsageEvents(call: CallFacts, now = new Date()): UsageEvent[] {
  const { stages, ...own } = call;
  if (!stages) return [{ ...own, createdAt: now }];
  const shared = stages.filter((s) => s.durationMs === null).length;
  let first = true;
  return stages.map((s) => {
    const statusCode = s.statusCode ?? call.statusCode;
    const share = s.durationMs === null;
    const lead = share && first;
    if (share) first = false;
    return {
      ...own,
      endpoint: s.endpoint,
      group: s.group,
      statusCode,
      durationMs: s.durationMs ?? call.durationMs / shared,
      bytesIn: s.bytesIn,
      bytesOut: s.bytesOut ?? (lead ? call.bytesOut : 0),
      pages: share ? (lead ? call.pages : null) : s.pages,
      errorCode: statusCode >= 400 ? (s.errorCode ?? call.errorCode) : null,
      createdAt: now,
    };
  });
}
