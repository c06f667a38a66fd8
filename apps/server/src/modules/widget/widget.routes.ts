/**
 * The widget: its settings (key, allowed origins, snippet) for the project's editors — `widget.manage` of
 * the tickets policy, the rule behind the board's `manageWidget` ability —, the public intake of
 * reports (widget-intake.routes.ts), a report's screen recording (widget-video.routes.ts) and the built script itself (widget-assets.routes.ts).
 */
import { dataAnswer, updateWidgetSchema, type WidgetSettings, widgetSettingsSchema } from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { policyActorOf } from "../../lib/policy.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { authorizeTicket } from "../tickets/tickets.policy.ts";
import { widgetParams as params, updateWidgetSettings } from "./widget.operations.ts";
import { presentWidgetSettings, widgetSettingsOf } from "./widget.settings.ts";
import { widgetAssetsRoutes } from "./widget-assets.routes.ts";
import { widgetIntakeRoutes } from "./widget-intake.routes.ts";
import { widgetVideoRoutes } from "./widget-video.routes.ts";

export async function widgetRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { config } = ctx;
  const { db } = ctx.database;

  app.get(
    "/api/projects/:projectId/widget",
    route({
      summary: "The project's widget: key, allowed origins, snippet",
      action: "widget.manage",
      response: dataAnswer(widgetSettingsSchema),
    }),
    async (request): Promise<{ data: WidgetSettings }> => {
      const actor = await requireActor(request);
      const { project, access } = await loadProject(db, actor, params.parse(request.params).projectId);
      authorizeTicket(policyActorOf(actor, access), "widget.manage");
      return { data: presentWidgetSettings(await widgetSettingsOf(db, project), config.appUrl) };
    },
  );

  app.put(
    "/api/projects/:projectId/widget",
    route({
      summary: "Set the origins allowed to send reports through the widget",
      body: updateWidgetSchema,
      action: "widget.manage",
      response: dataAnswer(widgetSettingsSchema),
    }),
    async (request) => updateWidgetSettings(ctx, await requireActor(request), requestInput(request)),
  );

  await app.register(widgetIntakeRoutes, { ctx });
  await app.register(widgetVideoRoutes, { ctx });
  await app.register(widgetAssetsRoutes, { ctx });
}
