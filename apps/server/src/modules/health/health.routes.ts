import {
  type HealthResponse,
  healthResponseSchema,
  type PublicConfig,
  publicConfigSchema,
  SHIPPED_FEATURES,
} from "@redline/shared";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { route } from "../../lib/routes.ts";
import type { Readiness } from "./readiness.ts";

export async function healthRoutes(
  app: FastifyInstance,
  { ctx, readiness }: { ctx: AppContext; readiness: Readiness },
) {
  // For a process supervisor and a load balancer, outside /api (no session, no rate limit, no CSRF):
  // live = the process runs and answers; ready = it should get traffic (readiness.ts).
  app.get(
    "/health/live",
    route({
      summary: "Liveness: the process answers",
      action: "public",
      response: z.strictObject({ status: z.literal("live") }),
    }),
    async () => ({
      status: "live",
    }),
  );

  app.get(
    "/health/ready",
    route({
      summary: "Readiness: the database and the job queue answer, and the process is not draining",
      action: "public",
      response: z.strictObject({ status: z.literal("ready") }),
    }),
    async (_request, reply) => {
      const report = await readiness.check();
      if (report.ready) return { status: "ready" };
      return reply
        .status(503)
        .header("retry-after", "5")
        .send({
          error: "Service Unavailable",
          code: readiness.isDraining ? "draining" : "not-ready",
          message: report.reasons.join(" "),
        });
    },
  );

  app.get(
    "/api/health",
    route({ summary: "Liveness and database check", action: "public", response: healthResponseSchema }),
    async (): Promise<HealthResponse> => {
      await ctx.database.db.execute(sql`select 1`);
      return { status: "ok", database: ctx.database.kind };
    },
  );

  app.get(
    "/api/config",
    route({
      summary: "Public configuration the web app needs (sign-in options, mailbox, product hosts)",
      action: "public",
      response: publicConfigSchema,
    }),
    async (): Promise<PublicConfig> => ({
      googleSignIn: Boolean(ctx.config.google),
      mailbox: !ctx.config.isProduction,
      products: {
        browseHostPrefix: ctx.config.browse.hostPrefix,
        webUrl: ctx.config.appUrl,
        browseUrl: ctx.config.browse.url,
      },
      docsUrl: ctx.config.docsUrl,
      features: SHIPPED_FEATURES,
    }),
  );
}
