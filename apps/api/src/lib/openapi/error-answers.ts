import { errorStatus, type EndpointInfo, type TErrorCode } from '@docflow/contracts';
import { PAGE_CHECK_CODE, statusFor } from '../gotenberg-status';

/** How a route is called, as far as its possible error answers go. */
export type RouteTraits =
  | { kind: 'public' | 'account' | 'admin' | 'jobs'; method: string; validates: boolean; operationId: string }
  | { kind: 'processing'; method: string; validates: boolean; endpoint: EndpointInfo }
  /** A Gotenberg-compatible route (routes/gotenberg): `form` for its POST /forms/… routes, none for health/version. */
  | { kind: 'gotenberg'; method: string; validates: boolean; form: boolean };

/** Any route can fail on the server's side. */
const server: TErrorCode[] = ['INTERNAL_ERROR'];
/** Fastify parses a body on these methods whatever the route expects: bad JSON, too big, an unknown media type. */
const bodyMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const body: TErrorCode[] = ['INVALID_JSON', 'BAD_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
/** A body, query or path parameter checked against the route's schema. */
const input: TErrorCode[] = ['VALIDATION_ERROR'];
/** plugins/authenticate.ts: the dashboard's access token, its session and its account. */
const accessToken: TErrorCode[] = [
  'UNAUTHORIZED',
  'INVALID_TOKEN',
  'TOKEN_EXPIRED',
  'ACCOUNT_DISABLED',
  'PASSWORD_CHANGE_REQUIRED',
];
const adminRole: TErrorCode[] = ['INSUFFICIENT_ROLE'];
/** plugins/api-key-auth.ts, plan-gate.ts and rate-limits.ts: the key, its plan and its limits. */
const apiKey: TErrorCode[] = [
  'API_KEY_REQUIRED',
  'INVALID_API_KEY',
  'ACCOUNT_DISABLED',
  'TOO_MANY_ATTEMPTS',
  'PLAN_EXPIRED',
  'RATE_LIMIT_EXCEEDED',
  'QUOTA_EXCEEDED',
  'MAINTENANCE',
];
/** Every group but the one every plan may call can be outside the key's plan. */
const groupGate: TErrorCode[] = ['ENDPOINT_NOT_ALLOWED'];
/** lib/uploads.ts and @fastify/multipart: the form, its files and its fields. */
const upload: TErrorCode[] = ['INVALID_MULTIPART', 'FILE_TOO_LARGE', 'INVALID_INPUT'];
/** The processing core's errors (core/errors.ts) as plugins/error-handler.ts maps them, for every engine. */
const engine: TErrorCode[] = [
  'INVALID_INPUT',
  'UNSUPPORTED_FORMAT',
  'ENGINE_FAILED',
  'SERVICE_UNAVAILABLE',
  'QUEUE_FULL',
  'TIMEOUT',
];
/** What the engines that read documents (PDF, office, HTML, images, scans) refuse them for. */
const documents: TErrorCode[] = [
  'INVALID_PDF',
  'INVALID_DOCUMENT',
  'PASSWORD_REQUIRED',
  'WRONG_PASSWORD',
  'PAGE_LIMIT_EXCEEDED',
  'PDF_CONTENT_TOO_LARGE',
  'DOCUMENT_TOO_COMPLEX',
];
/** Conversions that load pages fetch URLs, and refuse private or non-public addresses. */
const fetchesUrls: TErrorCode[] = ['URL_NOT_ALLOWED'];
/** Listings of what this server can do that ask the engines. */
const asksEngines: TErrorCode[] = ['SERVICE_UNAVAILABLE'];

/**
 * What an account or public route's own logic refuses with, beyond what every route of its kind can answer. Keyed by
 * operationId; read from the services each route calls (services/accounts, api-keys, subscriptions, plans, …).
 */
const routeCodes: Record<string, TErrorCode[]> = {
  ready: ['SERVICE_UNAVAILABLE'],
  authRegister: ['EMAIL_TAKEN', 'WEAK_PASSWORD', 'RATE_LIMIT_EXCEEDED'],
  authVerifyEmail: ['INVALID_LINK', 'LINK_EXPIRED', 'ACCOUNT_DISABLED'],
  authResendVerification: ['RATE_LIMIT_EXCEEDED'],
  authLogin: ['INVALID_CREDENTIALS', 'EMAIL_NOT_VERIFIED', 'ACCOUNT_DISABLED', 'TOO_MANY_ATTEMPTS'],
  authRefresh: ['INVALID_TOKEN', 'ACCOUNT_DISABLED'],
  authForgotPassword: ['RATE_LIMIT_EXCEEDED'],
  authResetPassword: ['INVALID_LINK', 'LINK_EXPIRED', 'ACCOUNT_DISABLED', 'WEAK_PASSWORD'],
  authChangePassword: ['INVALID_CREDENTIALS', 'WEAK_PASSWORD', 'TOO_MANY_ATTEMPTS'],
  authSessionsDelete: ['NOT_FOUND'],
  notificationsRead: ['NOT_FOUND'],
  plansCompare: ['NOT_FOUND'],
  plansGet: ['NOT_FOUND'],
  mySubscriptionsCreate: ['NOT_FOUND', 'TRIAL_ALREADY_USED'],
  myApiKeysCreate: ['NOT_FOUND', 'PLAN_NOT_OWNED', 'KEY_LIMIT_REACHED', 'RATE_LIMIT_EXCEEDED'],
  myApiKeysGet: ['NOT_FOUND'],
  myApiKeysUpdate: ['NOT_FOUND'],
  myApiKeysDelete: ['NOT_FOUND'],
  myApiKeysRegenerate: ['NOT_FOUND'],
  // services/admin: the role rules (FORBIDDEN), the last owner (CONFLICT), what is not there (NOT_FOUND).
  adminUsersCreate: ['NOT_FOUND', 'EMAIL_TAKEN', 'FORBIDDEN', 'WEAK_PASSWORD'],
  adminUsersGet: ['NOT_FOUND'],
  adminUsersUpdate: ['NOT_FOUND', 'FORBIDDEN', 'CONFLICT'],
  adminUsersStatusUpdate: ['NOT_FOUND', 'FORBIDDEN', 'CONFLICT'],
  adminUsersDelete: ['NOT_FOUND', 'FORBIDDEN', 'CONFLICT'],
  adminUsersStats: ['NOT_FOUND'],
  adminApiKeysCustomCreate: ['NOT_FOUND', 'PLAN_NOT_OWNED'],
  adminApiKeysCustomLimitsUpdate: ['NOT_FOUND'],
  adminApiKeysCustomDelete: ['NOT_FOUND'],
  adminSystemTestService: ['URL_NOT_ALLOWED', 'INVALID_INPUT', 'INVALID_DOCUMENT'],
  adminPlansUpdate: ['NOT_FOUND'],
  // services/billing: payments through Stripe.
  billing: ['BILLING_PROVIDER_FAILED'],
  billingCheckout: [
    'NOT_FOUND',
    'BILLING_NOT_CONFIGURED',
    'PLAN_NOT_FOR_SALE',
    'BILLING_SUBSCRIPTION_EXISTS',
    'BILLING_PROVIDER_FAILED',
  ],
  billingPortal: [
    'BILLING_NOT_CONFIGURED',
    'BILLING_ACCOUNT_MISSING',
    'BILLING_SUBSCRIPTION_MISSING',
    'BILLING_PROVIDER_FAILED',
  ],
  billingStripeWebhook: ['WEBHOOK_SIGNATURE_INVALID', 'BILLING_NOT_CONFIGURED', 'BILLING_PROVIDER_FAILED'],
  // services/customer-requests (issue 29): one pending request per plan, decided once, under the role rules.
  myPlanRequestsCreate: ['NOT_FOUND', 'CONFLICT'],
  myPlanRequestsDelete: ['NOT_FOUND', 'CONFLICT'],
  mySupportMessagesCreate: ['CONFLICT'],
  adminPlanRequestsGrant: ['NOT_FOUND', 'CONFLICT', 'FORBIDDEN', 'SELF_ACTION_FORBIDDEN'],
  adminPlanRequestsDecline: ['NOT_FOUND', 'CONFLICT', 'FORBIDDEN', 'SELF_ACTION_FORBIDDEN'],
  adminSupportMessagesHandle: ['NOT_FOUND', 'CONFLICT'],
  jobsGet: ['JOB_NOT_FOUND'],
  signingCertificatesCreate: [
    'CERTIFICATE_PASSWORD_WRONG',
    'INVALID_CERTIFICATE',
    'CERTIFICATE_EXPIRED',
    'CERTIFICATE_LIMIT_REACHED',
    'INVALID_INPUT',
  ],
  signingCertificatesDelete: ['CERTIFICATE_NOT_FOUND'],
  jobsDelete: ['JOB_NOT_FOUND'],
  jobsDeliveries: ['JOB_NOT_FOUND'],
  jobsWebhookResend: ['JOB_NOT_FOUND', 'CONFLICT'],
  // A failed job's result is the error answer its call gave: any refusal of the processing core.
  jobsResult: [
    'JOB_NOT_FOUND',
    'JOB_NOT_FINISHED',
    'JOB_INTERRUPTED',
    ...engine,
    ...documents,
    ...fetchesUrls,
    'ALL_PAGES_BLANK',
    'NO_FORM_FIELDS',
    'CERTIFICATE_PASSWORD_WRONG',
    'INVALID_CERTIFICATE',
    'CERTIFICATE_EXPIRED',
    'CERTIFICATE_NOT_FOUND',
    'FORBIDDEN',
    'TSA_UNAVAILABLE',
  ],
};
/** Processing endpoints with a refusal of their own, by path (a pipeline may run the same operation as a stage). */
const endpointCodes: Record<string, TErrorCode[]> = {
  '/pdf/remove-blank-pages': ['ALL_PAGES_BLANK'],
  '/pdf/forms/fields': ['NO_FORM_FIELDS'],
  '/pdf/forms/fill': ['NO_FORM_FIELDS'],
  '/pdf/forms/merge': ['NO_FORM_FIELDS'],
  '/pipeline': ['ALL_PAGES_BLANK', 'NO_FORM_FIELDS'],
  // core/signatures: the PKCS#12 and its certificate; the time-stamp authority, whose address obeys the URL rules.
  '/pdf/sign': [
    'CERTIFICATE_PASSWORD_WRONG',
    'INVALID_CERTIFICATE',
    'CERTIFICATE_EXPIRED',
    'CERTIFICATE_NOT_FOUND',
    'FORBIDDEN',
    'TSA_UNAVAILABLE',
    'URL_NOT_ALLOWED',
  ],
  '/pdf/timestamp': ['TSA_UNAVAILABLE', 'URL_NOT_ALLOWED'],
};
/** Jobs are read with an API key (of their owner) or the dashboard's access token. */
const jobReader: TErrorCode[] = [...accessToken, 'INVALID_API_KEY', 'TOO_MANY_ATTEMPTS'];

/** The error codes a route can answer with: what its kind, its method and its inputs allow, and its own refusals. */
export function errorCodesOf(route: RouteTraits): TErrorCode[] {
  const codes = [...server];
  if (bodyMethods.has(route.method)) codes.push(...body);
  if (route.validates) codes.push(...input);
  if (route.kind === 'gotenberg') {
    // The key (Basic password or x-api-key), the group it is counted as, the upload, the core, the documents; the
    // webhook headers (the `webhook` group, their URLs under the url-to-pdf rules) and the url routes fetch URLs.
    if (route.form) codes.push(...apiKey, ...groupGate, ...upload, ...engine, ...documents, ...fetchesUrls);
  } else if (route.kind === 'processing') {
    const { endpoint } = route;
    codes.push(...apiKey);
    if (endpoint.group !== '*') codes.push(...groupGate);
    // A multipart call may name a callbackUrl (jobs): refused outside the plan or at a non-public address.
    if (endpoint.body === 'multipart') codes.push(...upload, ...fetchesUrls);
    if (endpoint.body === 'none') {
      if (endpoint.group === 'ocr' || endpoint.group === 'conversion') codes.push(...asksEngines);
    } else {
      codes.push(...input, ...engine);
      if (endpoint.group !== 'qrcode') codes.push(...documents);
      if (endpoint.group === 'conversion') codes.push(...fetchesUrls);
    }
    codes.push(...(endpointCodes[endpoint.path] ?? []));
  } else {
    if (route.kind === 'jobs') codes.push(...jobReader);
    else if (route.kind !== 'public') codes.push(...accessToken);
    if (route.kind === 'admin') codes.push(...adminRole);
    codes.push(...(routeCodes[route.operationId] ?? []));
  }
  return [...new Set(codes)];
}

/**
 * The codes grouped by HTTP status, statuses in order, codes in the order of the contracts' table; a Gotenberg route's
 * under Gotenberg's statuses, with its 409 for the page checks a Chromium route may be asked for.
 */
export function errorCodesByStatus(
  codes: readonly TErrorCode[],
  route?: Pick<RouteTraits, 'kind'> & { pageChecks?: boolean },
): Map<number, TErrorCode[]> {
  const byStatus = new Map<number, TErrorCode[]>();
  const add = (status: number, code: TErrorCode) => byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  const gotenberg = route?.kind === 'gotenberg';
  for (const code of Object.keys(errorStatus) as TErrorCode[]) {
    if (!codes.includes(code)) continue;
    add(gotenberg ? statusFor(code, errorStatus[code]) : errorStatus[code], code);
  }
  if (gotenberg && route.pageChecks) add(409, PAGE_CHECK_CODE);
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}
