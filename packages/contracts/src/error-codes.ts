// No zod here: the web client reads this table at run time, and zod stays out of its first chunk.

/**
 * Every machine-readable error code the API can answer with, and the one HTTP status each maps to.
 * The server's error handler and the web client both read this table, so a code never changes status by accident.
 */
export const errorStatus = {
  BAD_REQUEST: 400,
  INVALID_JSON: 400,
  INVALID_MULTIPART: 400,
  INVALID_LINK: 400,
  LINK_EXPIRED: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_TOKEN: 401,
  TOKEN_EXPIRED: 401,
  INVALID_API_KEY: 401,
  API_KEY_REQUIRED: 401,
  PAYMENT_REQUIRED: 402,
  PLAN_EXPIRED: 402,
  FORBIDDEN: 403,
  EMAIL_NOT_VERIFIED: 403,
  ACCOUNT_DISABLED: 403,
  INSUFFICIENT_ROLE: 403,
  /** An admin acting on their own account through the admin API (role, plan, status, keys): only names are theirs. */
  SELF_ACTION_FORBIDDEN: 403,
  PASSWORD_CHANGE_REQUIRED: 403,
  ENDPOINT_NOT_ALLOWED: 403,
  URL_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  JOB_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  CONFLICT: 409,
  EMAIL_TAKEN: 409,
  TRIAL_ALREADY_USED: 409,
  /** The job's result is asked before it succeeded (its status says where it is). */
  JOB_NOT_FINISHED: 409,
  PAYLOAD_TOO_LARGE: 413,
  FILE_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNSUPPORTED_FORMAT: 415,
  VALIDATION_ERROR: 422,
  WEAK_PASSWORD: 422,
  INVALID_INPUT: 422,
  INVALID_PDF: 422,
  INVALID_DOCUMENT: 422,
  PASSWORD_REQUIRED: 422,
  WRONG_PASSWORD: 422,
  PAGE_LIMIT_EXCEEDED: 422,
  /** A PDF whose pages decode to more drawing instructions than the server reads (a decompression bomb). */
  PDF_CONTENT_TOO_LARGE: 422,
  /** Every page of the PDF was found blank: removing them would leave no document (POST /pdf/remove-blank-pages). */
  ALL_PAGES_BLANK: 422,
  /** A form operation on a PDF that has no fillable fields (POST /pdf/forms/*). */
  NO_FORM_FIELDS: 422,
  /** A document that needs more time (the plan's deadline) or memory than one conversion may take: the caller's. */
  DOCUMENT_TOO_COMPLEX: 422,
  /** The PKCS#12 file sent to sign with does not open with the password given. */
  CERTIFICATE_PASSWORD_WRONG: 422,
  /** The file sent as a certificate is not a PKCS#12 holding a private key and its certificate. */
  INVALID_CERTIFICATE: 422,
  /** The signing certificate is expired (or not valid yet): a signature made with it would not be valid. */
  CERTIFICATE_EXPIRED: 422,
  /** The account already stores MAX_STORED_CERTIFICATES signing certificates: delete one first. */
  CERTIFICATE_LIMIT_REACHED: 422,
  /** No signing certificate of this id is stored for the account (or it was deleted). */
  CERTIFICATE_NOT_FOUND: 404,
  KEY_LIMIT_REACHED: 422,
  PLAN_NOT_OWNED: 422,
  TOO_MANY_ATTEMPTS: 429,
  RATE_LIMIT_EXCEEDED: 429,
  QUOTA_EXCEEDED: 429,
  /** A job's webhook resent too often (per job or per account in the hour): Retry-After says when. */
  WEBHOOK_RESEND_LIMITED: 429,
  CLIENT_CLOSED_REQUEST: 499,
  INTERNAL_ERROR: 500,
  ENGINE_FAILED: 500,
  /** The time-stamp authority the operator configured did not answer with a time-stamp. */
  TSA_UNAVAILABLE: 502,
  SERVICE_UNAVAILABLE: 503,
  QUEUE_FULL: 503,
  MAINTENANCE: 503,
  TIMEOUT: 504,
  /** A job interrupted (server restart, lost worker) more times than it is retried. */
  JOB_INTERRUPTED: 500,
  // Payments (services/billing).
  /** A Stripe webhook whose Stripe-Signature does not match its body and the endpoint's secret. */
  WEBHOOK_SIGNATURE_INVALID: 400,
  /** The plan cannot be bought: free, not public, or no Stripe price for the interval asked. */
  PLAN_NOT_FOR_SALE: 422,
  /** Payments are not connected on this server (no STRIPE_SECRET_KEY): paid plans are asked for instead. */
  BILLING_NOT_CONFIGURED: 409,
  /** A live Stripe subscription exists: plan changes and cancellation go through the billing portal. */
  BILLING_SUBSCRIPTION_EXISTS: 409,
  /** The billing portal of someone who never paid through Stripe. */
  BILLING_ACCOUNT_MISSING: 409,
  /** A portal flow on the subscription (cancel, change) asked by someone with no live Stripe subscription. */
  BILLING_SUBSCRIPTION_MISSING: 409,
  /** Stripe's API did not answer as expected (network, outage, a key without the right permissions). */
  BILLING_PROVIDER_FAILED: 502,
} as const;

export type TErrorCode = keyof typeof errorStatus;
export const errorCodes = Object.keys(errorStatus) as TErrorCode[];
