import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const authRoutes: FastifyPluginAsyncZod = async (_app) => {
  // Filled by the accounts work: register, login, logout, refresh, verify-email, …
};
