import type { onRequestHookHandler, onResponseHookHandler, preHandlerHookHandler } from 'fastify';
import type { TEndpointGroup } from '@docflow/contracts';

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
}

/** Filled by processing routes for the usage meter. */
export interface UsageFacts {
  bytesIn: number;
  bytesOut: number;
  pages?: number;
}

/** Route-level hooks that put a processing route behind API-key auth, plan gate, limits and metering. */
export interface ProcessingGuardHooks {
  onRequest: onRequestHookHandler[];
  preHandler?: preHandlerHookHandler[];
  onResponse: onResponseHookHandler[];
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: ApiKeyContext;
    usage: UsageFacts;
  }
  interface FastifyInstance {
    /** `app.get(path, { ...app.processingGuard('pdf'), schema }, handler)`. */
    processingGuard(group: TEndpointGroup): ProcessingGuardHooks;
  }
}
