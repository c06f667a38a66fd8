/**
 * `/api/admin/*`: the instance admin (issue #34 item 6). Before anything else of a request — its body is
 * not even parsed — the caller is resolved and asked of admin.policy.ts: anyone but an operator gets 404,
 * as if the routes did not exist. Reads answer here; writes are operations (admin.operations.ts), each
 * audited.
 */
import {
  adminAuditEntrySchema,
  adminGrantSchema,
  adminHealthSchema,
  adminPageSchema,
  adminTeamSchema,
  adminTeamSearchSchema,
  adminUsageQuerySchema,
  adminUsageSchema,
  adminUserSchema,
  adminUserSearchSchema,
  dataAnswer,
} from "@redline/shared";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { route } from "../../lib/routes.ts";
import { getActor } from "../auth/session.ts";
import {
  type AdminCaller,
  disableTeam,
  disableUser,
  enableTeam,
  enableUser,
  grantUserPlan,
} from "./admin.operations.ts";
import { adminActorOf, authorizeAdmin } from "./admin.policy.ts";
import { auditPage, health, searchTeams, searchUsers, usage } from "./admin.reads.ts";

const auditQuerySchema = z.strictObject({ page: z.coerce.number().int().min(1).max(10_000).default(1) });

export async function adminRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { config } = ctx;
  const { db } = ctx.database;
  const callers = new WeakMap<FastifyRequest, AdminCaller>();

  app.addHook("onRequest", async (request) => {
    const actor = await getActor(request);
    const policyActor = adminActorOf(config.adminEmails, actor);
    authorizeAdmin(policyActor, "admin.read");
    callers.set(request, { actor: policyActor, userId: actor!.user.id, email: actor!.user.email });
  });
  const callerOf = (request: FastifyRequest) => callers.get(request)!;

  app.get(
    "/api/admin/users",
    route({
      summary: "Find users by e-mail or name (instance admin)",
      action: "admin.read",
      query: adminUserSearchSchema,
      response: dataAnswer(adminPageSchema(adminUserSchema)),
    }),
    async (request) => {
      const { q, page } = adminUserSearchSchema.parse(request.query);
      return { data: await searchUsers(db, config.adminEmails, q, page) };
    },
  );

  app.post(
    "/api/admin/users/:userId/disable",
    route({
      summary: "Disable a user: no sign-in, sessions ended (instance admin)",
      action: "admin.users.disable",
      response: dataAnswer(adminUserSchema),
    }),
    async (request) => disableUser(ctx, callerOf(request), requestInput(request)),
  );

  app.post(
    "/api/admin/users/:userId/enable",
    route({
      summary: "Enable a disabled user (instance admin)",
      action: "admin.users.disable",
      response: dataAnswer(adminUserSchema),
    }),
    async (request) => enableUser(ctx, callerOf(request), requestInput(request)),
  );

  app.post(
    "/api/admin/users/:userId/grant",
    route({
      summary: "Grant a user a privilege, lifetime-deal or partner plan (instance admin)",
      action: "admin.users.grant",
      body: adminGrantSchema,
      response: dataAnswer(adminUserSchema),
    }),
    async (request) => grantUserPlan(ctx, callerOf(request), requestInput(request)),
  );

  app.get(
    "/api/admin/teams",
    route({
      summary: "Find teams by name or owner (instance admin)",
      action: "admin.read",
      query: adminTeamSearchSchema,
      response: dataAnswer(adminPageSchema(adminTeamSchema)),
    }),
    async (request) => {
      const { q, page } = adminTeamSearchSchema.parse(request.query);
      return { data: await searchTeams(db, config.plansEnabled, q, page) };
    },
  );

  app.post(
    "/api/admin/teams/:teamId/disable",
    route({
      summary: "Disable a team (instance admin)",
      action: "admin.teams.disable",
      response: dataAnswer(adminTeamSchema),
    }),
    async (request) => disableTeam(ctx, callerOf(request), requestInput(request)),
  );

  app.post(
    "/api/admin/teams/:teamId/enable",
    route({
      summary: "Enable a disabled team (instance admin)",
      action: "admin.teams.disable",
      response: dataAnswer(adminTeamSchema),
    }),
    async (request) => enableTeam(ctx, callerOf(request), requestInput(request)),
  );

  app.get(
    "/api/admin/usage",
    route({
      summary:
        "Sign-ups, comments and the upgrade funnel per day, from the analytics events (instance admin)",
      action: "admin.read",
      query: adminUsageQuerySchema,
      response: dataAnswer(adminUsageSchema),
    }),
    async (request) => {
      const { days } = adminUsageQuerySchema.parse(request.query);
      return { data: await usage(db, days) };
    },
  );

  app.get(
    "/api/admin/health",
    route({
      summary: "The mail outbox and the job queue (instance admin)",
      action: "admin.read",
      response: dataAnswer(adminHealthSchema),
    }),
    async () => ({ data: await health(db) }),
  );

  app.get(
    "/api/admin/audit",
    route({
      summary: "Every admin action, newest first (instance admin)",
      action: "admin.read",
      query: auditQuerySchema,
      response: dataAnswer(adminPageSchema(adminAuditEntrySchema)),
    }),
    async (request) => {
      const { page } = auditQuerySchema.parse(request.query);
      return { data: await auditPage(db, page) };
    },
  );
}
