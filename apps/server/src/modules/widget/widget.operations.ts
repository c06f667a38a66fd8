/** The widget's settings (lib/operations.ts): the origins allowed to send reports, set by the owner and editors. */
import { updateWidgetSchema, type WidgetSettings } from "@redline/shared";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { widgetSettings } from "../../db/schema/index.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { operation, withParams } from "../../lib/operations.ts";
import { policyActorOf } from "../../lib/policy.ts";
import type { Actor } from "../auth/session.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { authorizeTicket } from "../tickets/tickets.policy.ts";
import { normalizeOrigin, presentWidgetSettings, widgetSettingsOf } from "./widget.settings.ts";

export const widgetParams = z.object({ projectId: z.string().min(1).max(64) });

export const updateWidgetSettings = operation(
  "widget.update",
  withParams(widgetParams, updateWidgetSchema),
  async (ctx, actor: Actor, { projectId, ...input }): Promise<{ data: WidgetSettings }> => {
    const { db } = ctx.database;
    const { project, access } = await loadProject(db, actor, projectId);
    authorizeTicket(policyActorOf(actor, access), "widget.manage");
    await widgetSettingsOf(db, project);
    // Stored as browsers send them in Origin (lower case, no default port), each once.
    const normalized = input.allowedOrigins.map((origin) => normalizeOrigin(origin));
    if (normalized.some((origin) => origin === null))
      throw new BadRequestError("An origin is a scheme and a host, e.g. https://example.com", "validation");
    const allowedOrigins = [...new Set(normalized as string[])];
    const [saved] = await db
      .update(widgetSettings)
      .set({ allowedOrigins, modifiedAt: new Date() })
      .where(eq(widgetSettings.projectId, project.id))
      .returning();
    return { data: presentWidgetSettings(saved!, ctx.config.appUrl) };
  },
);
