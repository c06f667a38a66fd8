import { dataAnswer, type MailboxMessage, mailboxMessageSchema } from "@redline/shared";
import { desc } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { mailboxMessages } from "../../db/schema/index.ts";
import { route } from "../../lib/routes.ts";

/**
 * The embedded outbox, for a developer running Redline locally. Registered only outside production,
 * so in production the route does not exist at all.
 */
export async function mailboxRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.get(
    "/api/dev/mailbox",
    route({
      summary: "The embedded outbox (development only)",
      action: "public",
      response: dataAnswer(z.array(mailboxMessageSchema)),
    }),
    async (): Promise<{ data: MailboxMessage[] }> => {
      const rows = await ctx.database.db
        .select()
        .from(mailboxMessages)
        .orderBy(desc(mailboxMessages.createdAt))
        .limit(200);
      return { data: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })) };
    },
  );
}
