import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';
import { operationIdOf } from '../../../src/lib/openapi/operation-id';

/**
 * Every operation's id, as generated clients name their methods: a change here renames a method in every client,
 * so it must be deliberate (and this list updated with it).
 */
const expected: [string, string][] = [
  ['GET /health', 'health'],
  ['GET /ready', 'ready'],
  ['POST /api/v1/auth/register', 'authRegister'],
  ['GET /api/v1/auth/verify-email', 'authVerifyEmail'],
  ['POST /api/v1/auth/resend-verification', 'authResendVerification'],
  ['POST /api/v1/auth/login', 'authLogin'],
  ['POST /api/v1/auth/refresh', 'authRefresh'],
  ['POST /api/v1/auth/logout', 'authLogout'],
  ['POST /api/v1/auth/forgot-password', 'authForgotPassword'],
  ['POST /api/v1/auth/reset-password', 'authResetPassword'],
  ['POST /api/v1/auth/change-password', 'authChangePassword'],
  ['POST /api/v1/auth/validate-password', 'authValidatePassword'],
  ['GET /api/v1/auth/me', 'authMe'],
  ['PATCH /api/v1/auth/me', 'authMeUpdate'],
  ['GET /api/v1/auth/sessions', 'authSessionsList'],
  ['DELETE /api/v1/auth/sessions/{id}', 'authSessionsDelete'],
  ['POST /api/v1/auth/revoke-all-sessions', 'authRevokeAllSessions'],
  ['GET /api/v1/billing', 'billing'],
  ['POST /api/v1/billing/checkout', 'billingCheckout'],
  ['POST /api/v1/billing/portal', 'billingPortal'],
  ['POST /api/v1/billing/stripe/webhook', 'billingStripeWebhook'],
  ['GET /api/v1/notifications', 'notificationsList'],
  ['POST /api/v1/notifications/{id}/read', 'notificationsRead'],
  ['POST /api/v1/notifications/read-all', 'notificationsReadAll'],
  ['GET /api/v1/jobs', 'jobs'],
  ['GET /api/v1/jobs/{id}', 'jobsGet'],
  ['GET /api/v1/jobs/{id}/result', 'jobsResult'],
  ['DELETE /api/v1/jobs/{id}', 'jobsDelete'],
  ['GET /api/v1/jobs/{id}/deliveries', 'jobsDeliveries'],
  ['POST /api/v1/jobs/{id}/webhook/resend', 'jobsWebhookResend'],
  ['GET /api/v1/webhooks/secret', 'webhooksSecret'],
  ['POST /api/v1/webhooks/secret/rotate', 'webhooksSecretRotate'],
  ['GET /api/v1/signing-certificates', 'signingCertificatesList'],
  ['POST /api/v1/signing-certificates', 'signingCertificatesCreate'],
  ['DELETE /api/v1/signing-certificates/{id}', 'signingCertificatesDelete'],
  ['POST /api/v1/pdf/merge', 'pdfMerge'],
  ['POST /api/v1/pdf/split', 'pdfSplit'],
  ['POST /api/v1/pdf/extract-pages', 'pdfExtractPages'],
  ['POST /api/v1/pdf/delete-pages', 'pdfDeletePages'],
  ['POST /api/v1/pdf/rotate', 'pdfRotate'],
  ['POST /api/v1/pdf/reorder', 'pdfReorder'],
  ['POST /api/v1/pdf/watermark', 'pdfWatermark'],
  ['POST /api/v1/pdf/page-numbers', 'pdfPageNumbers'],
  ['POST /api/v1/pdf/protect', 'pdfProtect'],
  ['POST /api/v1/pdf/unlock', 'pdfUnlock'],
  ['POST /api/v1/pdf/metadata', 'pdfMetadata'],
  ['POST /api/v1/pdf/metadata/update', 'pdfMetadataUpdate'],
  ['POST /api/v1/pdf/analyze', 'pdfAnalyze'],
  ['POST /api/v1/pdf/extract-text', 'pdfExtractText'],
  ['POST /api/v1/pdf/to-markdown', 'pdfToMarkdown'],
  ['POST /api/v1/pdf/to-json', 'pdfToJson'],
  ['POST /api/v1/pdf/tables', 'pdfTables'],
  ['POST /api/v1/pdf/compress', 'pdfCompress'],
  ['POST /api/v1/pdf/compression-analysis', 'pdfCompressionAnalysis'],
  ['POST /api/v1/pdf/to-images', 'pdfToImages'],
  ['POST /api/v1/pdf/extract-images', 'pdfExtractImages'],
  ['POST /api/v1/pdf/flatten', 'pdfFlatten'],
  ['POST /api/v1/pdf/repair', 'pdfRepair'],
  ['POST /api/v1/pdf/to-pdfa', 'pdfToPdfa'],
  ['POST /api/v1/pdf/crop', 'pdfCrop'],
  ['POST /api/v1/pdf/remove-blank-pages', 'pdfRemoveBlankPages'],
  ['POST /api/v1/pdf/add-margins', 'pdfAddMargins'],
  ['POST /api/v1/pdf/auto-rotate', 'pdfAutoRotate'],
  ['POST /api/v1/pdf/redact', 'pdfRedact'],
  ['POST /api/v1/pdf/forms/fields', 'pdfFormsFields'],
  ['POST /api/v1/pdf/forms/fill', 'pdfFormsFill'],
  ['POST /api/v1/pdf/forms/merge', 'pdfFormsMerge'],
  ['POST /api/v1/pdf/sign', 'pdfSign'],
  ['POST /api/v1/pdf/timestamp', 'pdfTimestamp'],
  ['POST /api/v1/pdf/verify-signatures', 'pdfVerifySignatures'],
  ['POST /api/v1/qrcode/url', 'qrcodeUrl'],
  ['POST /api/v1/qrcode/wifi', 'qrcodeWifi'],
  ['POST /api/v1/qrcode/contact', 'qrcodeContact'],
  ['POST /api/v1/qrcode/event', 'qrcodeEvent'],
  ['POST /api/v1/qrcode/location', 'qrcodeLocation'],
  ['POST /api/v1/qrcode/sms', 'qrcodeSms'],
  ['POST /api/v1/qrcode/email', 'qrcodeEmail'],
  ['POST /api/v1/qrcode/phone', 'qrcodePhone'],
  ['POST /api/v1/qrcode/text', 'qrcodeText'],
  ['POST /api/v1/qrcode/generic', 'qrcodeGeneric'],
  ['GET /api/v1/qrcode/types', 'qrcodeTypes'],
  ['POST /api/v1/qrcode/decode', 'qrcodeDecode'],
  ['GET /api/v1/plans', 'plansList'],
  ['GET /api/v1/plans/compare', 'plansCompare'],
  ['GET /api/v1/plans/recommendations', 'plansRecommendations'],
  ['GET /api/v1/plans/{name}', 'plansGet'],
  ['GET /api/v1/my/subscriptions', 'mySubscriptionsList'],
  ['POST /api/v1/my/subscriptions', 'mySubscriptionsCreate'],
  ['GET /api/v1/my/plan-requests', 'myPlanRequestsList'],
  ['POST /api/v1/my/plan-requests', 'myPlanRequestsCreate'],
  ['DELETE /api/v1/my/plan-requests/{id}', 'myPlanRequestsDelete'],
  ['GET /api/v1/my/support-messages', 'mySupportMessagesList'],
  ['POST /api/v1/my/support-messages', 'mySupportMessagesCreate'],
  ['GET /api/v1/admin/plan-requests', 'adminPlanRequestsList'],
  ['GET /api/v1/admin/billing/events', 'adminBillingEventsList'],
  ['POST /api/v1/admin/plan-requests/{id}/grant', 'adminPlanRequestsGrant'],
  ['POST /api/v1/admin/plan-requests/{id}/decline', 'adminPlanRequestsDecline'],
  ['GET /api/v1/admin/support-messages', 'adminSupportMessagesList'],
  ['POST /api/v1/admin/support-messages/{id}/handle', 'adminSupportMessagesHandle'],
  ['GET /api/v1/my/api-keys', 'myApiKeysList'],
  ['POST /api/v1/my/api-keys', 'myApiKeysCreate'],
  ['GET /api/v1/my/api-keys/{id}', 'myApiKeysGet'],
  ['PUT /api/v1/my/api-keys/{id}', 'myApiKeysUpdate'],
  ['DELETE /api/v1/my/api-keys/{id}', 'myApiKeysDelete'],
  ['POST /api/v1/my/api-keys/{id}/regenerate', 'myApiKeysRegenerate'],
  ['GET /api/v1/my/usage', 'myUsage'],
  ['GET /api/v1/my/dashboard', 'myDashboard'],
  ['GET /api/v1/admin/stats/overview', 'adminStatsOverview'],
  ['POST /api/v1/admin/users', 'adminUsersCreate'],
  ['GET /api/v1/admin/users', 'adminUsersList'],
  ['GET /api/v1/admin/users/search', 'adminUsersSearch'],
  ['GET /api/v1/admin/users/{id}', 'adminUsersGet'],
  ['PUT /api/v1/admin/users/{id}', 'adminUsersUpdate'],
  ['DELETE /api/v1/admin/users/{id}', 'adminUsersDelete'],
  ['PATCH /api/v1/admin/users/{id}/status', 'adminUsersStatusUpdate'],
  ['GET /api/v1/admin/users/{id}/stats', 'adminUsersStats'],
  ['GET /api/v1/admin/api-keys/custom/template', 'adminApiKeysCustomTemplate'],
  ['POST /api/v1/admin/api-keys/custom/preview', 'adminApiKeysCustomPreview'],
  ['POST /api/v1/admin/api-keys/custom', 'adminApiKeysCustomCreate'],
  ['GET /api/v1/admin/api-keys/custom', 'adminApiKeysCustomList'],
  ['PUT /api/v1/admin/api-keys/custom/{id}/limits', 'adminApiKeysCustomLimitsUpdate'],
  ['DELETE /api/v1/admin/api-keys/custom/{id}', 'adminApiKeysCustomDelete'],
  ['GET /api/v1/admin/system/monitor', 'adminSystemMonitor'],
  ['GET /api/v1/admin/system/health', 'adminSystemHealth'],
  ['GET /api/v1/admin/system/services', 'adminSystemServices'],
  ['GET /api/v1/admin/system/metrics', 'adminSystemMetrics'],
  ['GET /api/v1/admin/system/business', 'adminSystemBusiness'],
  ['GET /api/v1/admin/system/stats', 'adminSystemStats'],
  ['GET /api/v1/admin/system/diagnostic', 'adminSystemDiagnostic'],
  ['GET /api/v1/admin/system/realtime', 'adminSystemRealtime'],
  ['GET /api/v1/admin/system/alerts', 'adminSystemAlerts'],
  ['GET /api/v1/admin/system/maintenance', 'adminSystemMaintenance'],
  ['POST /api/v1/admin/system/maintenance', 'adminSystemMaintenanceSet'],
  ['POST /api/v1/admin/system/cache/clear', 'adminSystemCacheClear'],
  ['POST /api/v1/admin/system/metrics/refresh', 'adminSystemMetricsRefresh'],
  ['POST /api/v1/admin/system/test-service', 'adminSystemTestService'],
  ['GET /api/v1/admin/plans', 'adminPlans'],
  ['PUT /api/v1/admin/plans/{name}', 'adminPlansUpdate'],
  ['GET /api/v1/admin/search', 'adminSearch'],
  ['GET /api/v1/admin/audit-log', 'adminAuditLog'],
  ['GET /api/v1/status', 'status'],
  ['GET /api/v1/service-info', 'serviceInfo'],
  ['GET /api/v1/legal/terms', 'legalTerms'],
  ['GET /api/v1/legal/privacy', 'legalPrivacy'],
  ['GET /api/v1/ping', 'ping'],
  ['POST /api/v1/conversion/detect', 'conversionDetect'],
  ['POST /api/v1/conversion/word-to-pdf', 'conversionWordToPdf'],
  ['POST /api/v1/conversion/excel-to-pdf', 'conversionExcelToPdf'],
  ['POST /api/v1/conversion/powerpoint-to-pdf', 'conversionPowerpointToPdf'],
  ['POST /api/v1/conversion/html-to-pdf', 'conversionHtmlToPdf'],
  ['POST /api/v1/conversion/url-to-pdf', 'conversionUrlToPdf'],
  ['POST /api/v1/conversion/html-to-image', 'conversionHtmlToImage'],
  ['POST /api/v1/conversion/url-to-image', 'conversionUrlToImage'],
  ['POST /api/v1/conversion/markdown-to-pdf', 'conversionMarkdownToPdf'],
  ['POST /api/v1/conversion/text-to-pdf', 'conversionTextToPdf'],
  ['POST /api/v1/conversion/epub-to-pdf', 'conversionEpubToPdf'],
  ['POST /api/v1/conversion/image-to-pdf', 'conversionImageToPdf'],
  ['POST /api/v1/conversion/auto-to-pdf', 'conversionAutoToPdf'],
  ['POST /api/v1/conversion/batch-to-pdf', 'conversionBatchToPdf'],
  ['GET /api/v1/conversion/formats', 'conversionFormats'],
  ['POST /api/v1/ocr/extract', 'ocrExtract'],
  ['POST /api/v1/ocr/enhanced', 'ocrEnhanced'],
  ['POST /api/v1/ocr/analyze-quality', 'ocrAnalyzeQuality'],
  ['POST /api/v1/ocr/searchable-pdf', 'ocrSearchablePdf'],
  ['GET /api/v1/ocr/languages', 'ocrLanguages'],
  ['POST /api/v1/pipeline', 'pipeline'],
  ['GET /gotenberg/health', 'gotenbergHealth'],
  ['GET /gotenberg/version', 'gotenbergVersion'],
  ['POST /gotenberg/forms/libreoffice/convert', 'gotenbergLibreofficeConvert'],
  ['POST /gotenberg/forms/chromium/convert/html', 'gotenbergChromiumConvertHtml'],
  ['POST /gotenberg/forms/chromium/convert/url', 'gotenbergChromiumConvertUrl'],
  ['POST /gotenberg/forms/chromium/convert/markdown', 'gotenbergChromiumConvertMarkdown'],
  ['POST /gotenberg/forms/chromium/screenshot/html', 'gotenbergChromiumScreenshotHtml'],
  ['POST /gotenberg/forms/chromium/screenshot/url', 'gotenbergChromiumScreenshotUrl'],
  ['POST /gotenberg/forms/chromium/screenshot/markdown', 'gotenbergChromiumScreenshotMarkdown'],
  ['POST /gotenberg/forms/pdfengines/merge', 'gotenbergPdfenginesMerge'],
  ['POST /gotenberg/forms/pdfengines/split', 'gotenbergPdfenginesSplit'],
  ['POST /gotenberg/forms/pdfengines/flatten', 'gotenbergPdfenginesFlatten'],
  ['POST /gotenberg/forms/pdfengines/convert', 'gotenbergPdfenginesConvert'],
  ['POST /gotenberg/forms/pdfengines/metadata/read', 'gotenbergPdfenginesMetadataRead'],
  ['POST /gotenberg/forms/pdfengines/metadata/write', 'gotenbergPdfenginesMetadataWrite'],
  ['POST /gotenberg/forms/pdfengines/encrypt', 'gotenbergPdfenginesEncrypt'],
  ['POST /gotenberg/forms/pdfengines/rotate', 'gotenbergPdfenginesRotate'],
  ['POST /gotenberg/forms/pdfengines/watermark', 'gotenbergPdfenginesWatermark'],
  ['POST /gotenberg/forms/pdfengines/stamp', 'gotenbergPdfenginesStamp'],
  ['POST /gotenberg/forms/pdfengines/bookmarks/read', 'gotenbergPdfenginesBookmarksRead'],
  ['POST /gotenberg/forms/pdfengines/bookmarks/write', 'gotenbergPdfenginesBookmarksWrite'],
  ['POST /gotenberg/forms/pdfengines/embed', 'gotenbergPdfenginesEmbed'],
  ['POST /gotenberg/forms/pdfengines/optimize', 'gotenbergPdfenginesOptimize'],
  ['POST /gotenberg/forms/pdfengines/factur-x', 'gotenbergPdfenginesFacturX'],
];

describe('operationIdOf', () => {
  it('names processing endpoints after their catalogue path', () => {
    expect(operationIdOf('POST', '/api/v1/pdf/merge')).toBe('pdfMerge');
    expect(operationIdOf('POST', '/api/v1/conversion/word-to-pdf')).toBe('conversionWordToPdf');
    expect(operationIdOf('POST', '/api/v1/pdf/metadata/update')).toBe('pdfMetadataUpdate');
    expect(operationIdOf('GET', '/api/v1/ping')).toBe('ping');
  });

  it('names account routes after their path and method, REST style', () => {
    expect(operationIdOf('POST', '/api/v1/auth/login')).toBe('authLogin');
    expect(operationIdOf('GET', '/api/v1/my/api-keys')).toBe('myApiKeysList');
    expect(operationIdOf('POST', '/api/v1/my/api-keys')).toBe('myApiKeysCreate');
    expect(operationIdOf('GET', '/api/v1/my/api-keys/{id}')).toBe('myApiKeysGet');
    expect(operationIdOf('PUT', '/api/v1/my/api-keys/{id}')).toBe('myApiKeysUpdate');
    expect(operationIdOf('DELETE', '/api/v1/my/api-keys/{id}')).toBe('myApiKeysDelete');
    expect(operationIdOf('POST', '/api/v1/my/api-keys/{id}/regenerate')).toBe('myApiKeysRegenerate');
    expect(operationIdOf('PATCH', '/api/v1/auth/me')).toBe('authMeUpdate');
  });

  it("names Gotenberg's routes after their module and action, under gotenberg", () => {
    expect(operationIdOf('POST', '/gotenberg/forms/pdfengines/metadata/read')).toBe('gotenbergPdfenginesMetadataRead');
    expect(operationIdOf('GET', '/gotenberg/health')).toBe('gotenbergHealth');
  });

  it('does not depend on the prefix, a trailing slash, the parameter syntax or the method case', () => {
    expect(operationIdOf('get', '/api/v1/plans/')).toBe(operationIdOf('GET', '/api/v1/plans'));
    expect(operationIdOf('GET', '/plans')).toBe('plansList');
    expect(operationIdOf('GET', '/api/v1/plans/:name')).toBe(operationIdOf('GET', '/api/v1/plans/{name}'));
  });
});

describe('the served document', () => {
  let t: TestApp;
  let operations: [string, string][];
  beforeAll(async () => {
    t = await buildTestApp();
    const doc = (await t.app.inject({ url: '/api-docs/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]): [string, string] => [
        `${method.toUpperCase()} ${path}`,
        op.operationId ?? '',
      ]),
    );
  });
  afterAll(() => t.close());

  it('gives every operation the id of the rule, each one unique', () => {
    for (const [route, id] of operations) {
      const [method, path] = route.split(' ') as [string, string];
      expect(id, route).toBe(operationIdOf(method, path));
    }
    const ids = operations.map(([, id]) => id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps every id stable', () => {
    expect(Object.fromEntries(operations)).toEqual(Object.fromEntries(expected));
  });
});
