import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZAdminCreateUserRequest,
  ZAdminCreateUserResponse,
  ZAdminDeleteUserResponse,
  ZAdminUpdateUserRequest,
  ZAdminUserListResponse,
  ZAdminUserQuery,
  ZAdminUserResponse,
  ZAdminUserSearchQuery,
  ZAdminUserStatsResponse,
  ZAdminUserStatusRequest,
  ZAdminUsersQuery,
  ZAdminUsersResponse,
  ZIdParam,
} from '@docflow/contracts';
import {
  createUserByAdmin,
  deleteUser,
  getUser,
  listUsers,
  searchUsers,
  setUserStatus,
  updateUser,
  userStats,
} from '../../../services/admin/users';
import { adminContext, adminRoute, withErrors } from './http';
import { audited, targets } from './refusal-audit';

/** User management (spec-2 section 7 "Admin users"), under the role rules of services/admin/role-rules.ts. */
export const adminUserRoutes: FastifyPluginAsyncZod = async (app) => {
  const { onRequest, schemaBase } = adminRoute('manageUsers', 'admin-users');

  app.post(
    '/',
    {
      onRequest,
      config: audited('admin.user.create', targets.newUserFromBody),
      schema: {
        ...schemaBase,
        summary: 'Create a user with a temporary password (shown once; changed at first sign-in)',
        description:
          'Verified from the start, registration source "admin". Nobody grants a role above their own (403). ' +
          'With `plan`, the plan is granted without end.',
        body: ZAdminCreateUserRequest,
        response: { 201: ZAdminCreateUserResponse, ...withErrors(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const data = await createUserByAdmin(adminContext(app, request), request.body);
      return reply.code(201).send({ success: true as const, message: 'Utilisateur créé avec succès !', data });
    },
  );

  app.get(
    '/',
    {
      onRequest,
      schema: {
        ...schemaBase,
        summary: 'List users (search, role, source, inactive, sort, pages) with the four counts of the users page',
        querystring: ZAdminUsersQuery,
        response: { 200: ZAdminUsersResponse, ...withErrors(422) },
      },
    },
    async (request) => ({ success: true as const, data: await listUsers(app.db, request.query) }),
  );

  app.get(
    '/search',
    {
      onRequest,
      schema: {
        ...schemaBase,
        summary: 'Search users by name, e-mail or company',
        querystring: ZAdminUserSearchQuery,
        response: { 200: ZAdminUserListResponse, ...withErrors(422) },
      },
    },
    async (request) => ({
      success: true as const,
      data: { users: await searchUsers(app.db, request.query.q, request.query.limit) },
    }),
  );

  app.get(
    '/:id',
    {
      onRequest,
      schema: {
        ...schemaBase,
        summary: 'One user (404 when inactive and includeInactive=false), with their stats on request',
        params: ZIdParam,
        querystring: ZAdminUserQuery,
        response: { 200: ZAdminUserResponse, ...withErrors(404, 422) },
      },
    },
    async (request) => ({ success: true as const, data: await getUser(app.db, request.params.id, request.query) }),
  );

  app.put(
    '/:id',
    {
      onRequest,
      config: audited('admin.user.update', targets.userFromParams),
      schema: {
        ...schemaBase,
        summary: 'Update a user (name, role, company, isActive, plan)',
        description:
          '403 FORBIDDEN when a role rule refuses (details.rule: owner-protected, rank, grant-above-own), ' +
          '403 SELF_ACTION_FORBIDDEN for a change of your own role, plan or status (details.rule: self); ' +
          '409 CONFLICT for the last active owner (details.rule: last-owner). Deactivation ends their sessions ' +
          'and refuses their API keys on the next call.',
        params: ZIdParam,
        body: ZAdminUpdateUserRequest,
        response: { 200: ZAdminUserResponse, ...withErrors(404, 409, 422) },
      },
    },
    async (request) => ({
      success: true as const,
      message: 'Utilisateur mis à jour avec succès !',
      data: { user: await updateUser(adminContext(app, request), request.params.id, request.body) },
    }),
  );

  app.patch(
    '/:id/status',
    {
      onRequest,
      config: audited(
        (r) =>
          (r.body as { isActive?: unknown } | undefined)?.isActive === false
            ? 'admin.user.deactivate'
            : 'admin.user.activate',
        targets.userFromParams,
      ),
      schema: {
        ...schemaBase,
        summary: 'Activate or deactivate a user',
        params: ZIdParam,
        body: ZAdminUserStatusRequest,
        response: { 200: ZAdminUserResponse, ...withErrors(404, 409, 422) },
      },
    },
    async (request) => {
      const user = await setUserStatus(adminContext(app, request), request.params.id, request.body.isActive);
      return {
        success: true as const,
        message: `Utilisateur ${user.isActive ? 'activé' : 'désactivé'} avec succès !`,
        data: { user },
      };
    },
  );

  app.delete(
    '/:id',
    {
      onRequest,
      config: audited('admin.user.delete', targets.userFromParams),
      schema: {
        ...schemaBase,
        summary: 'Delete a user with their keys, sessions and usage',
        params: ZIdParam,
        response: { 200: ZAdminDeleteUserResponse, ...withErrors(404, 409) },
      },
    },
    async (request) => {
      const data = await deleteUser(adminContext(app, request), request.params.id);
      return {
        success: true as const,
        message: `Utilisateur supprimé avec succès (${data.deletedApiKeys} clés API supprimées)`,
        data,
      };
    },
  );

  app.get(
    '/:id/stats',
    {
      onRequest,
      schema: {
        ...schemaBase,
        summary: "A user's requests, keys and sessions",
        params: ZIdParam,
        response: { 200: ZAdminUserStatsResponse, ...withErrors(404) },
      },
    },
    async (request) => ({ success: true as const, data: { stats: await userStats(app.db, request.params.id) } }),
  );
};
