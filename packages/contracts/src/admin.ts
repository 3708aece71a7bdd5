import { z } from 'zod';
import { ZEndpointGroup, ZPagination, ZQueryBoolean, successEnvelope } from './common';
import { ZRegistrationSource, ZUser, ZUserRole, type TUserRole } from './auth';
import { ZApiKey, ZApiKeyEnvironment, ZApiKeyName } from './keys';
import { ZBillingPeriod, ZPlan } from './plans';

// ---------------------------------------------------------------------------------------------------------------
// Roles (spec-2 section 6, enforced on the server by services/admin/role-rules.ts)

/** Rank of each role: a user acts only on lower ranks (owners also on other owners) and grants at most its own. */
export const roleRank: Record<TUserRole, number> = { user: 0, admin: 1, super_admin: 2, owner: 3 };

/** What each admin capability needs, the one table read by the server's guards and the web's menus. */
export const adminCapabilities = {
  manageUsers: 'admin',
  monitor: 'admin',
  customKeys: 'admin',
  search: 'admin',
  cache: 'admin',
  maintenance: 'admin',
  auditLog: 'admin',
  /** Prices and limits of every customer: a step above user management (a decision beyond the spec). */
  managePlans: 'super_admin',
} as const satisfies Record<string, TUserRole>;
export type TAdminCapability = keyof typeof adminCapabilities;
export const hasCapability = (role: string | null | undefined, capability: TAdminCapability): boolean =>
  !!role && role in roleRank && roleRank[role as TUserRole] >= roleRank[adminCapabilities[capability]];

/** French labels of the roles (spec-2 "Admin user management"). */
export const roleLabels: Record<TUserRole, string> = {
  user: 'Utilisateur',
  admin: 'Administrateur',
  super_admin: 'Super Admin',
  owner: 'Propriétaire',
};

// ---------------------------------------------------------------------------------------------------------------
// Users

export const ZAdminUser = ZUser.extend({
  mustChangePassword: z.boolean().describe('Created by an admin with a temporary password not yet changed'),
  apiKeysCount: z.number().int().describe('Keys not deleted'),
}).meta({ id: 'AdminUser' });
export type TAdminUser = z.infer<typeof ZAdminUser>;

export const adminUserSortFields = ['createdAt', 'lastLoginAt', 'name', 'email', 'role'] as const;

export const ZAdminUsersQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  search: z.string().trim().max(200).optional().describe('Case-insensitive, over name, e-mail and company'),
  role: ZUserRole.optional(),
  source: ZRegistrationSource.optional(),
  includeInactive: ZQueryBoolean.default(true),
  sortBy: z.enum(adminUserSortFields).default('createdAt'),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
});
export type TAdminUsersQuery = z.infer<typeof ZAdminUsersQuery>;

/** The four stat cards of the users page, over every user (not the page). */
export const ZAdminUserCounts = z.object({
  total: z.number().int(),
  active: z.number().int(),
  verified: z.number().int(),
  apiRegistrations: z.number().int(),
});
export type TAdminUserCounts = z.infer<typeof ZAdminUserCounts>;

export const ZAdminUsersResponse = successEnvelope(
  z.object({ users: z.array(ZAdminUser), pagination: ZPagination, counts: ZAdminUserCounts }),
);

export const ZAdminUserSearchQuery = z.object({
  q: z.string().trim().min(1).max(200),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export const ZAdminUserListResponse = successEnvelope(z.object({ users: z.array(ZAdminUser) }));

export const ZAdminUserStats = z
  .object({
    requests: z.object({
      today: z.number().int(),
      thisMonth: z.number().int(),
      total: z.number().int(),
      errors: z.number().int(),
      successRate: z.number(),
      avgResponseTime: z.number(),
      lastRequestAt: z.string().nullable(),
    }),
    apiKeys: z.object({ total: z.number().int(), active: z.number().int(), custom: z.number().int() }),
    sessions: z.object({ active: z.number().int() }),
  })
  .meta({ id: 'AdminUserStats' });
export type TAdminUserStats = z.infer<typeof ZAdminUserStats>;

export const ZAdminUserQuery = z.object({
  includeInactive: ZQueryBoolean.default(true),
  includeStats: ZQueryBoolean.default(false),
});
export const ZAdminUserResponse = successEnvelope(z.object({ user: ZAdminUser, stats: ZAdminUserStats.optional() }));
export const ZAdminUserStatsResponse = successEnvelope(z.object({ stats: ZAdminUserStats }));

/** Spec-2 section 5, with its French messages. */
const adminEmail = z
  .string({ error: "L'email est requis" })
  .trim()
  .toLowerCase()
  .min(1, "L'email est requis")
  .max(255, "L'email ne peut pas dépasser 255 caractères")
  .email("Format d'email invalide");
const adminName = z
  .string({ error: 'Le nom est requis' })
  .trim()
  .min(2, 'Le nom doit contenir entre 2 et 100 caractères')
  .max(100, 'Le nom doit contenir entre 2 et 100 caractères');
const adminRole = z.enum(['user', 'admin', 'super_admin', 'owner'], { error: 'Rôle invalide' });
const company = z.string().trim().max(200).nullable();

export const ZAdminCreateUserRequest = z.object({
  email: adminEmail,
  name: adminName,
  role: adminRole.default('user'),
  company: company.optional(),
  plan: z.string().trim().min(1).max(50).optional().describe('Grant this plan (an active subscription without end)'),
});
export type TAdminCreateUserRequest = z.input<typeof ZAdminCreateUserRequest>;

export const ZAdminCreateUserResponse = successEnvelope(
  z.object({
    user: ZAdminUser,
    tempPassword: z.string().describe('Shown once; the user must change it at first sign-in'),
  }),
);

export const ZAdminUpdateUserRequest = z
  .object({
    name: adminName.optional(),
    role: adminRole.optional(),
    company: company.optional(),
    isActive: z.boolean().optional(),
    plan: z
      .string()
      .trim()
      .min(1)
      .max(50)
      .optional()
      .describe('Grant this plan without end and make it the primary plan'),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Rien à modifier' });
export type TAdminUpdateUserRequest = z.infer<typeof ZAdminUpdateUserRequest>;

export const ZAdminUserStatusRequest = z.object({ isActive: z.boolean() });

export const ZAdminDeleteUserResponse = successEnvelope(
  z.object({ deletedUser: ZAdminUser, deletedApiKeys: z.number().int() }),
);

// ---------------------------------------------------------------------------------------------------------------
// Audit log

export const ZAuditEntry = z
  .object({
    id: z.string(),
    at: z.string(),
    action: z.string(),
    actor: z.object({ id: z.string(), email: z.string().nullable(), name: z.string().nullable() }).nullable(),
    target: z.object({ type: z.string(), id: z.string(), label: z.string().nullable() }).nullable(),
    ip: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'AuditEntry' });
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

export const ZAuditLogQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  action: z.string().trim().max(60).optional(),
  actorId: z.string().uuid().optional(),
  targetId: z.string().max(100).optional(),
  adminOnly: ZQueryBoolean.default(true).describe('Only actions made through the admin API'),
});
export const ZAuditLogResponse = successEnvelope(z.object({ entries: z.array(ZAuditEntry), pagination: ZPagination }));

// ---------------------------------------------------------------------------------------------------------------
// Custom API keys (spec-2 sections 3, 5, 9)

const MB = 1_048_576;

/** Section 9's bounds. */
export const customLimitBounds = {
  maxRequestsPerMinute: { min: 1, max: 10_000 },
  maxRequestsPerHour: { min: 1, max: 100_000 },
  maxRequestsPerMonth: { min: 1, max: 1_000_000 },
  maxFileSize: { min: 1024, max: 500 * MB },
  maxPagesPerPdf: { min: 1, max: 2000 },
  burstLimit: { min: 1, max: 10_000 },
  validityDays: { min: 1, max: 3650 },
} as const;

/** Section 9's defaults. */
export const customLimitDefaults = {
  maxRequestsPerMinute: 1000,
  maxRequestsPerHour: 10_000,
  maxRequestsPerMonth: 100_000,
  maxFileSize: 50 * MB,
  maxPagesPerPdf: 500,
  allowedEndpoints: ['pdf', 'conversion'] as Array<z.infer<typeof ZEndpointGroup>>,
  features: [] as string[],
  burstLimit: null as number | null,
  validityDays: null as number | null,
};

/** Warnings (section 5) and the high-limit flag (section 9). */
export const customLimitThresholds = {
  warnMonthly: 500_000,
  warnFileSize: 100 * MB,
  highMonthly: 500_000,
  highFileSize: 100 * MB,
  highMinute: 5000,
} as const;

/**
 * Limits as an editor sends them: numbers may be missing or out of bounds, so a preview can say what is wrong
 * instead of answering 422. Creation and updates validate the same object strictly (services/admin/custom-limits.ts).
 */
export const ZCustomLimitsDraft = z.object({
  maxRequestsPerMinute: z.number().optional(),
  maxRequestsPerHour: z.number().optional(),
  maxRequestsPerMonth: z.number().optional(),
  maxFileSize: z.number().optional(),
  maxPagesPerPdf: z.number().nullable().optional(),
  allowedEndpoints: z.array(z.string()).optional(),
  features: z.array(z.string()).optional(),
  burstLimit: z.number().nullable().optional(),
  validityDays: z.number().nullable().optional(),
});
export type TCustomLimitsDraft = z.infer<typeof ZCustomLimitsDraft>;

export const ZCustomLimitsTemplateResponse = successEnvelope(
  z.object({
    template: ZCustomLimitsDraft,
    bounds: z.record(z.string(), z.object({ min: z.number(), max: z.number() })),
    endpointGroups: z.array(ZEndpointGroup),
    thresholds: z.record(z.string(), z.number()),
  }),
);

export const ZCustomLimitsPreviewRequest = z.object({
  customLimits: ZCustomLimitsDraft,
  userId: z.string().uuid().optional().describe("Suggest limits from this user's real peak usage"),
});
export const ZCustomLimitsPreview = z
  .object({
    valid: z.boolean(),
    errors: z.array(z.string()),
    warnings: z.array(z.string()),
    isHighLimit: z.boolean(),
    suggestions: z
      .object({
        maxRequestsPerMinute: z.number().int(),
        maxRequestsPerHour: z.number().int(),
        maxRequestsPerMonth: z.number().int(),
        maxFileSize: z.number().int(),
        basedOn: z.object({
          peakPerMinute: z.number().int(),
          peakPerHour: z.number().int(),
          peakPerMonth: z.number().int(),
          largestFile: z.number().int(),
        }),
      })
      .nullable(),
  })
  .meta({ id: 'CustomLimitsPreview' });
export type TCustomLimitsPreview = z.infer<typeof ZCustomLimitsPreview>;
export const ZCustomLimitsPreviewResponse = successEnvelope(z.object({ preview: ZCustomLimitsPreview }));

export const ZCreateCustomKeyRequest = z.object({
  userId: z.string().uuid(),
  customLimits: ZCustomLimitsDraft,
  keyOptions: z.object({
    name: ZApiKeyName,
    environment: ZApiKeyEnvironment.default('development'),
    description: z.string().trim().max(500).optional(),
    planName: z.string().trim().min(1).max(50).default('pro').describe("Processing settings come from this plan's"),
  }),
});
export type TCreateCustomKeyRequest = z.input<typeof ZCreateCustomKeyRequest>;

export const ZCustomKey = ZApiKey.extend({
  owner: z.object({ id: z.string(), email: z.string(), name: z.string() }),
  description: z.string().nullable(),
}).meta({ id: 'CustomKey' });
export type TCustomKey = z.infer<typeof ZCustomKey>;

export const ZCustomKeyResponse = successEnvelope(z.object({ apiKey: ZCustomKey, preview: ZCustomLimitsPreview }));

export const ZCustomKeysQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  userId: z.string().uuid().optional(),
  search: z.string().trim().max(200).optional(),
  isActive: ZQueryBoolean.optional(),
  sortBy: z.enum(['createdAt', 'name', 'lastUsedAt']).default('createdAt'),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
});
export const ZCustomKeysResponse = successEnvelope(z.object({ apiKeys: z.array(ZCustomKey), pagination: ZPagination }));
export const ZUpdateCustomLimitsRequest = z.object({ customLimits: ZCustomLimitsDraft });

// ---------------------------------------------------------------------------------------------------------------
// Global search

export const ZAdminSearchQuery = z.object({
  q: z.string().trim().min(1).max(200),
  type: z.enum(['all', 'users', 'keys']).default('all'),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
export const ZAdminSearchResponse = successEnvelope(
  z.object({
    users: z.array(ZAdminUser),
    apiKeys: z.array(ZCustomKey),
  }),
);

// ---------------------------------------------------------------------------------------------------------------
// System monitor (spec-2 section 3 "System monitor data": snake_case as the spec names the fields)

export const serviceStatuses = ['healthy', 'degraded', 'error', 'unknown'] as const;
export const ZServiceStatus = z.enum(serviceStatuses);
export type TServiceStatus = z.infer<typeof ZServiceStatus>;

export const ZServiceHealth = z
  .object({
    status: ZServiceStatus,
    response_time_ms: z.number().nullable(),
    connection: z.string().optional(),
    memory_used_mb: z.number().optional(),
    queue_length: z.number().int().optional(),
    keys_count: z.number().int().optional(),
    error: z.string().nullable().optional(),
    critical: z.boolean(),
    details: z.record(z.string(), z.unknown()).optional(),
    checked_at: z.string(),
  })
  .meta({ id: 'ServiceHealth' });
export type TServiceHealth = z.infer<typeof ZServiceHealth>;

export const ZOverallStatus = z.enum(['healthy', 'degraded', 'error']);
export type TOverallStatus = z.infer<typeof ZOverallStatus>;

export const ZSystemMetrics = z
  .object({
    memory: z.object({
      heap_used_mb: z.number(),
      heap_total_mb: z.number(),
      rss_mb: z.number(),
      external_mb: z.number(),
      system_total_mb: z.number(),
      system_free_mb: z.number(),
      usage_percent: z.number().describe('RSS over MEMORY_LIMIT_MB when set, else used system memory'),
    }),
    cpu: z.object({ load_1m: z.number(), cores: z.number().int(), usage_percent: z.number() }),
    event_loop: z.object({ delay_p50_ms: z.number(), delay_p99_ms: z.number(), utilization: z.number() }),
    disk: z.object({ path: z.string(), total_mb: z.number(), free_mb: z.number(), usage_percent: z.number() }),
    process: z.object({
      pid: z.number().int(),
      node_version: z.string(),
      platform: z.string(),
      arch: z.string(),
      uptime_seconds: z.number(),
      active_handles: z.number().int(),
      active_requests: z.number().int(),
    }),
    processing: z.object({
      running: z.number().int(),
      queued: z.number().int(),
      capacity: z.number().int(),
    }),
    http: z.object({
      requests: z.number().int(),
      errors_5xx: z.number().int(),
      error_rate_percent: z.number(),
      avg_response_time_ms: z.number(),
      p95_response_time_ms: z.number(),
      window_seconds: z.number().int(),
    }),
    environment: z.object({ node_env: z.string(), port: z.number().int(), version: z.string() }),
  })
  .meta({ id: 'SystemMetrics' });
export type TSystemMetrics = z.infer<typeof ZSystemMetrics>;

export const ZBusinessMetrics = z
  .object({
    users: z.object({ total: z.number().int(), active: z.number().int(), new_today: z.number().int() }),
    api_keys: z.object({ total: z.number().int(), active: z.number().int(), new_today: z.number().int() }),
    requests: z.object({
      today: z.number().int(),
      this_month: z.number().int(),
      total: z.number().int(),
      success_rate: z.number(),
      error_rate: z.number(),
      avg_response_time_ms: z.number(),
    }),
    plans: z.object({ pricing: z.object({ total_value: z.number(), currency: z.string() }) }),
    revenue: z.object({ monthly: z.number(), currency: z.string(), active_subscriptions: z.number().int() }),
  })
  .meta({ id: 'BusinessMetrics' });
export type TBusinessMetrics = z.infer<typeof ZBusinessMetrics>;

export const alertLevels = ['critical', 'error', 'warning', 'info'] as const;
export const ZAlert = z
  .object({
    id: z.string(),
    level: z.enum(alertLevels),
    type: z.string(),
    message: z.string(),
    value: z.number().nullable(),
    threshold: z.number().nullable(),
    since: z.string(),
  })
  .meta({ id: 'Alert' });
export type TAlert = z.infer<typeof ZAlert>;

export const ZAlertThresholds = z.object({
  memory_usage_percent: z.number(),
  response_time_ms: z.number(),
  disk_usage_percent: z.number(),
  error_rate_percent: z.number(),
  queue_length: z.number(),
});
export type TAlertThresholds = z.infer<typeof ZAlertThresholds>;

export const ZAlertsReport = z.object({
  alerts: z.array(ZAlert),
  alert_count: z.object({
    critical: z.number().int(),
    error: z.number().int(),
    warning: z.number().int(),
    info: z.number().int(),
    total: z.number().int(),
  }),
  thresholds: ZAlertThresholds,
});
export type TAlertsReport = z.infer<typeof ZAlertsReport>;

export const ZHealthReport = z.object({
  overall_status: ZOverallStatus,
  uptime: z.object({ seconds: z.number(), started_at: z.string() }),
  response_time_ms: z.number(),
  services: z.record(z.string(), ZServiceHealth),
  summary: z.object({
    healthy: z.number().int(),
    degraded: z.number().int(),
    down: z.number().int(),
    avg_response_time_ms: z.number(),
  }),
  timestamp: z.string(),
});
export type THealthReport = z.infer<typeof ZHealthReport>;

export const ZMaintenanceState = z
  .object({
    enabled: z.boolean(),
    message: z.string().nullable(),
    since: z.string().nullable(),
    by: z.string().nullable(),
    retryAfterSeconds: z.number().int(),
  })
  .meta({ id: 'MaintenanceState' });
export type TMaintenanceState = z.infer<typeof ZMaintenanceState>;

export const ZMonitorReport = ZHealthReport.extend({
  system: ZSystemMetrics,
  business: ZBusinessMetrics,
  alerts: ZAlertsReport,
  maintenance: ZMaintenanceState,
}).meta({ id: 'MonitorReport' });
export type TMonitorReport = z.infer<typeof ZMonitorReport>;

export const ZRealtimeMetrics = z.object({
  timestamp: z.string(),
  memory: ZSystemMetrics.shape.memory,
  cpu: ZSystemMetrics.shape.cpu,
  event_loop: ZSystemMetrics.shape.event_loop,
  processing: ZSystemMetrics.shape.processing,
  http: ZSystemMetrics.shape.http,
});
export type TRealtimeMetrics = z.infer<typeof ZRealtimeMetrics>;

export const ZMonitorResponse = successEnvelope(ZMonitorReport);
export const ZHealthReportResponse = successEnvelope(ZHealthReport);
export const ZServicesResponse = successEnvelope(
  z.object({ services: z.record(z.string(), ZServiceHealth), summary: ZHealthReport.shape.summary }),
);
export const ZSystemMetricsResponse = successEnvelope(ZSystemMetrics);
export const ZBusinessMetricsResponse = successEnvelope(ZBusinessMetrics);
export const ZRealtimeResponse = successEnvelope(ZRealtimeMetrics);
export const ZAlertsResponse = successEnvelope(ZAlertsReport);
export const ZSystemStatsResponse = successEnvelope(z.object({ system: ZSystemMetrics, business: ZBusinessMetrics }));
export const ZDiagnosticResponse = successEnvelope(
  z.object({
    checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string(), duration_ms: z.number() })),
    config: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  }),
);

export const ZMaintenanceRequest = z.object({
  enabled: z.boolean(),
  message: z.string().trim().max(500).optional(),
  retryAfterSeconds: z.number().int().min(30).max(86_400).default(600),
});
export const ZMaintenanceResponse = successEnvelope(z.object({ maintenance: ZMaintenanceState }));

export const ZCacheClearResponse = successEnvelope(z.object({ cleared: z.record(z.string(), z.number().int()) }));

export const ZTestServiceRequest = z.object({
  url: z.string().trim().min(1).max(2048),
  timeout: z.number().int().min(100).max(30_000).default(5000),
});
export const ZTestServiceResponse = successEnvelope(
  z.object({
    url: z.string(),
    reachable: z.boolean(),
    statusCode: z.number().int().nullable(),
    response_time_ms: z.number(),
    error: z.string().nullable(),
  }),
);

// ---------------------------------------------------------------------------------------------------------------
// Plans (admin)

export const ZAdminPlansResponse = successEnvelope(z.object({ plans: z.array(ZPlan) }));
export const ZAdminUpdatePlanRequest = z
  .object({
    displayName: z.string().trim().min(1).max(100),
    description: z.string().trim().max(1000),
    price: z.number().min(0).max(1_000_000),
    currency: z.string().trim().length(3),
    billingPeriod: ZBillingPeriod,
    maxRequestsPerMonth: z.number().int().min(1).max(100_000_000),
    maxRequestsPerHour: z.number().int().min(1).max(10_000_000),
    maxRequestsPerMinute: z.number().int().min(1).max(1_000_000),
    maxFileSize: z
      .number()
      .int()
      .min(1024)
      .max(512 * MB),
    maxPagesPerPdf: z.number().int().min(1).max(100_000).nullable(),
    maxApiKeysPerUser: z.number().int().min(1).max(1000),
    burstLimit: z.number().int().min(1).max(1_000_000).nullable(),
    allowedEndpoints: z.array(ZEndpointGroup).min(1),
    isActive: z.boolean(),
    isPublic: z.boolean(),
    isRecommended: z.boolean(),
  })
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Nothing to change' });
export type TAdminUpdatePlanRequest = z.infer<typeof ZAdminUpdatePlanRequest>;
