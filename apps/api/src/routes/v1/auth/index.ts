import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createLoginThrottle } from '../../../services/login-throttle';
import { createDeviceCookies } from '../../../services/device-cookies';
import { createIpQuotas, type IpQuotas } from '../../../services/ip-quotas';
import { purgeExpired } from '../../../services/accounts/purge-expired';
import { signUpRoutes } from './sign-up';
import { signInRoutes } from './sign-in';
import { passwordRoutes } from './password';
import { accountRoutes } from './account';

const HOUSEKEEPING_MS = 3600 * 1000;

export type AuthQuotas = IpQuotas<'register' | 'mail'>;

/** /api/v1/auth: the account API. Handlers are thin; the logic is in services/accounts/. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const throttle = createLoginThrottle({
    maxFailures: app.config.LOGIN_MAX_FAILURES,
    lockSeconds: app.config.LOGIN_LOCK_SECONDS,
    dailyIpCap: app.config.LOGIN_DAILY_IP_CAP,
    accountHourlyCap: app.config.LOGIN_ACCOUNT_HOURLY_CAP,
    redisUrl: app.config.REDIS_URL,
  });
  app.onShutdown(() => throttle.close());
  const devices = createDeviceCookies({
    secret: app.config.jwtSecret,
    lifetimeDays: app.config.LOGIN_DEVICE_COOKIE_DAYS,
  });
  const quotas = createIpQuotas(
    {
      register: { points: app.config.REGISTER_MAX_PER_IP_HOUR, windowSeconds: 3600, what: 'sign-ups' },
      mail: { points: app.config.MAIL_REQUESTS_MAX_PER_IP_HOUR, windowSeconds: 3600, what: 'e-mail requests' },
    },
    { redisUrl: app.config.REDIS_URL },
  );
  app.onShutdown(() => quotas.close());

  // Ended sessions and old e-mail links are deleted hourly.
  const timer = setInterval(() => {
    purgeExpired(app.db).catch((err) => app.log.warn({ err }, 'account housekeeping failed'));
  }, HOUSEKEEPING_MS);
  timer.unref();
  app.onShutdown(() => clearInterval(timer));

  await app.register(signUpRoutes, { quotas });
  await app.register(signInRoutes, { throttle, devices });
  await app.register(passwordRoutes, { throttle, devices, quotas });
  await app.register(accountRoutes);
};
