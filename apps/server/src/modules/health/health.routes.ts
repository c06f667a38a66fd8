import type { HealthResponse, PublicConfig } from "@redline/shared";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { route } from "../../lib/routes.ts";

export async function healthRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.get(
    "/api/health",
    route({ summary: "Liveness and database check", action: "public" }),
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
    }),
  );
}
