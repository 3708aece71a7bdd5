import type {
  onErrorHookHandler,
  onRequestHookHandler,
  onResponseHookHandler,
  onSendHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import type { TEndpointGroup } from '@docflow/contracts';
import type { KeyRecord } from '../services/api-keys/lookup';
import type { LimitDecision, LimitReceipt } from '../services/limits/index';
import type { PlanProcessing } from '../services/plans/processing';

/** The pseudo-group of routes every plan may call (GET /ping). */
export const ANY_GROUP = '*' as const;
export type GuardGroup = TEndpointGroup | typeof ANY_GROUP;

/** What an authenticated processing request knows about its API key and plan. */
export interface ApiKeyContext {
  keyId: string;
  userId: string;
  planName: string;
  environment: 'development' | 'staging' | 'production';
  allowedEndpoints: TEndpointGroup[];
  limits: {
    maxFileSize: number;
    maxPagesPerPdf: number | null;
    maxRequestsPerMinute: number;
    maxRequestsPerHour: number;
    maxRequestsPerMonth: number;
    burstLimit: number | null;
  };
  /** JavaScript, deadline and share of the processing slots (the job owner's weight) the plan buys. */
  processing: PlanProcessing;
}

/** Filled by processing routes for the usage meter. */
export interface UsageFacts {
  bytesIn: number;
  bytesOut: number;
  pages?: number;
}

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

/**
 * What the guard's steps learn about a processing call, in order: the key (api-key-auth), its limits and plan
 * (plan-gate), the limits' decision (rate-limits), and how it ended (usage-metering).
 */
export interface ApiKeyState {
  group: GuardGroup;
  /** The key may also come as an HTTP Basic password (the Gotenberg-compatible routes: its clients send Basic auth). */
  basicAuth: boolean;
  /** The endpoint the call is metered as, when not its own path (a Gotenberg route counts as its DocFlow endpoint). */
  meterAs: string | null;
  rec: KeyRecord | null;
  /** The key's plan and limits, once the plan gate let the call through. */
  context: ApiKeyContext | null;
  decision: LimitDecision | null;
  /** The call passed the limits and was counted. */
  counted: boolean;
  /** The call was counted, then given back because the server failed it (5xx). */
  refunded: boolean;
  /**
   * Every call counted for this request (its own, and one per stage or file beyond the first), given back together
   * when the server fails it. A job's run holds those of its admission (none for a synchronous call handed to a
   * worker: the node that answers it gives them back).
   */
  receipts: LimitReceipt[];
  /** Set by a pipeline once its stages are counted: one usage event per stage instead of the call's own. */
  stages: StageUsage[] | null;
  errorCode: string | null;
  /** A job's stored call sent again by its runner: it was limited and counted when the job was admitted. */
  replay: boolean;
  /** The call was admitted as a job (202): its run writes the usage event. */
  jobAdmitted: boolean;
}

/** The state a call starts with at the guard (nothing known yet). */
export function newApiKeyState(
  group: GuardGroup,
  opts: { basicAuth?: boolean; meterAs?: string; replay?: boolean } = {},
): ApiKeyState {
  return {
    group,
    basicAuth: opts.basicAuth === true,
    meterAs: opts.meterAs ?? null,
    rec: null,
    context: null,
    decision: null,
    counted: false,
    refunded: false,
    receipts: [],
    stages: null,
    errorCode: null,
    replay: opts.replay === true,
    jobAdmitted: false,
  };
}

/** How a route family differs at the guard; the DocFlow routes take the defaults. */
export interface ProcessingGuardOptions {
  basicAuth?: boolean;
  meterAs?: string;
}

/** Route-level hooks that put a processing route behind API-key auth, plan gate, limits and metering. */
export interface ProcessingGuardHooks {
  onRequest: onRequestHookHandler[];
  preHandler?: preHandlerHookHandler[];
  onSend?: onSendHookHandler[];
  onError?: onErrorHookHandler[];
  onResponse: onResponseHookHandler[];
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: ApiKeyContext;
    apiKeyState: ApiKeyState | null;
    usage: UsageFacts;
  }
  interface FastifyInstance {
    /** `app.get(path, { ...app.processingGuard('pdf'), schema }, handler)`. */
    processingGuard(group: GuardGroup, opts?: ProcessingGuardOptions): ProcessingGuardHooks;
  }
}
