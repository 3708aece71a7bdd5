import type { FastifyPluginAsync } from 'fastify';
import { authRoutes } from './auth/index';
import { notificationRoutes } from './notifications/index';
import { pdfRoutes } from './pdf/index';
import { qrcodeRoutes } from './qrcode/index';
import { planRoutes } from './plans/index';
import { myRoutes } from './my/index';
import { adminRoutes } from './admin/index';
import { statusRoutes } from './status/index';
import { serviceInfoRoutes } from './service-info/index';
import { legalRoutes } from './legal/index';
import { pingRoutes } from './ping/index';
import { conversionRoutes } from './conversion/index';
import { ocrRoutes } from './ocr/index';
import { jobRoutes } from './jobs/index';
import { webhookRoutes } from './webhooks/index';
import { pipelineRoutes } from './pipeline/index';
import { signingCertificateRoutes } from './signing-certificates/index';
import { billingRoutes } from './billing/index';
import { customerRequestRoutes } from './requests/index';

/** The wiring list of /api/v1: one plugin per resource. */
export const v1Routes: FastifyPluginAsync = async (app) => {
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(notificationRoutes, { prefix: '/notifications' });
  await app.register(pdfRoutes, { prefix: '/pdf' });
  await app.register(qrcodeRoutes, { prefix: '/qrcode' });
  await app.register(planRoutes, { prefix: '/plans' });
  await app.register(myRoutes, { prefix: '/my' });
  await app.register(customerRequestRoutes, { prefix: '/my' }); // plan requests, support messages (issue 29)
  await app.register(adminRoutes, { prefix: '/admin' });
  await app.register(pingRoutes);
  await app.register(statusRoutes);
  await app.register(serviceInfoRoutes);
  await app.register(legalRoutes, { prefix: '/legal' });
  await app.register(conversionRoutes, { prefix: '/conversion' });
  await app.register(ocrRoutes, { prefix: '/ocr' });
  await app.register(jobRoutes, { prefix: '/jobs' });
  await app.register(webhookRoutes, { prefix: '/webhooks' });
  await app.register(pipelineRoutes);
  await app.register(signingCertificateRoutes, { prefix: '/signing-certificates' });
  await app.register(billingRoutes, { prefix: '/billing' });
};
