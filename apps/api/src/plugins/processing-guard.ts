import type {
  FastifyReply,
  FastifyRequest,
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
import type { StageUsage } from '../services/usage/call-events';

/** The pseudo-group of routes every plan may call (GET /ping). */
export const ANY_GROUP = '*' as const;
export type GuardGroup = TEndpointGroup | typeof ANY_GROUP;

/** What an authenticated processing request knows about its API key and plan. */
export interface ApiKeyContext {
  keyId: string;
  userId: string;
  /** The account's owner made this key (not an administrator for them). */
  madeByOwner: boolean;
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

/** One stage of a call metered apart (endpoints/processing-endpoint.ts). */
export type { StageUsage };

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
   * when the server fails it; a job keeps those of its admission for its run (plugins/job-call.ts).
   */
  receipts: LimitReceipt[];
  /** Set by a pipeline once its stages are counted: one usage event per stage instead of the call's own. */
  stages: StageUsage[] | null;
  errorCode: string | null;
  /**
   * The status the call ended with, when its door answers it inside another (an MCP tool call's error travels in a
   * 200 JSON-RPC answer): what the refund and the usage event read instead of the reply's status.
   */
  callStatus: number | null;
  /** The call was admitted as a job (202): its run writes the usage event. */
  jobAdmitted: boolean;
}

/** The state a call starts with at the guard (nothing known yet). */
export function newApiKeyState(group: GuardGroup, opts: { basicAuth?: boolean; meterAs?: string } = {}): ApiKeyState {
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
    callStatus: null,
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

/**
 * The guard of a door whose calls are known only once its body is read (the MCP door: one route, a tool per
 * endpoint): the key is checked by `hooks` as the request comes, each call is let through by `admit` with its own
 * group, in the order and with the very steps of `processingGuard`. Only a request that presented a call is metered.
 */
export interface DeferredGuard {
  hooks: ProcessingGuardHooks;
  /** The plan gate, limits and reminders for a call of `group`, metered as `meterAs` (refusals are thrown). */
  admit(request: FastifyRequest, reply: FastifyReply, group: TEndpointGroup, meterAs: string): Promise<void>;
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
    deferredGuard(): DeferredGuard;
  }
}
