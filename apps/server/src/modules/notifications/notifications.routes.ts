/**
 * One's own notifications (SPEC §4 states): list and counts here; toggle seen, "Clear all" and "panel
 * opened" are operations (notifications.operations.ts). Every query is scoped to the signed-in user's
 * rows: another user's notification is a 404, as if it did not exist.
 */
import {
  dataAnswer,
  listNotificationsQuerySchema,
  markAllSeenSchema,
  NOTIFICATION_CURSOR,
  type NotificationCounts,
  type NotificationsPage,
  notificationCountsSchema,
  notificationSchema,
  notificationsPageSchema,
  notificationsUpdatedSchema,
  updateNotificationSchema,
} from "@redline/shared";
import { desc, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { notifications, projects } from "../../db/schema/index.ts";
import { requestInput } from "../../lib/operations.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { notificationCounts } from "./notifications.counts.ts";
import {
  markAllNotificationsNotified,
  markAllNotificationsSeen,
  markNotificationSeen,
} from "./notifications.operations.ts";
import { ownedBy } from "./notifications.policy.ts";
import { presentNotifications } from "./notifications.presenter.ts";

const _notificationParams = z.object({ notificationId: z.string().min(1).max(64) });

export async function notificationsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;
  const mine = ownedBy;

  app.get(
    "/api/notifications",
    route({
      summary: "The user's notifications, newest first",
      query: listNotificationsQuerySchema,
      action: "self",
      response: notificationsPageSchema,
    }),
    async (request): Promise<NotificationsPage> => {
      const actor = await requireActor(request);
      const query = listNotificationsQuerySchema.parse(request.query);
      const cursor = query.before ? NOTIFICATION_CURSOR.exec(query.before) : null;
      const rows = await db
        .select()
        .from(notifications)
        .where(
          mine(
            actor.user.id,
            query.projectId ? eq(notifications.projectId, query.projectId) : undefined,
            cursor
              ? sql`(${notifications.createdAt}, ${notifications.id}) < (${new Date(cursor[1]!).toISOString()}::timestamptz, ${cursor[2]!})`
              : undefined,
          ),
        )
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .limit(query.limit + 1);
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      const projectRows = await db
        .selectDistinct({ id: projects.id, title: projects.title })
        .from(notifications)
        .innerJoin(projects, eq(projects.id, notifications.projectId))
        .where(mine(actor.user.id))
        .orderBy(projects.title, projects.id);
      return {
        data: await presentNotifications(db, page),
        nextCursor: rows.length > query.limit && last ? `${last.createdAt.toISOString()}~${last.id}` : null,
        projects: projectRows,
      };
    },
  );

  app.get(
    "/api/notifications/counts",
    route({
      summary: "Unseen and not-yet-notified counts",
      action: "self",
      response: dataAnswer(notificationCountsSchema),
    }),
    async (request): Promise<{ data: NotificationCounts }> => {
      const actor = await requireActor(request);
      return { data: await notificationCounts(db, actor.user.id) };
    },
  );

  app.patch(
    "/api/notifications/:notificationId",
    route({
      summary: "Mark seen or unseen",
      body: updateNotificationSchema,
      action: "self",
      response: dataAnswer(notificationSchema),
    }),
    async (request) => markNotificationSeen(ctx, await requireActor(request), requestInput(request)),
  );

  app.post(
    "/api/notifications/seen",
    route({
      summary: "Clear all (mark every notification seen)",
      body: markAllSeenSchema,
      action: "self",
      response: dataAnswer(notificationsUpdatedSchema),
    }),
    async (request) => markAllNotificationsSeen(ctx, await requireActor(request), requestInput(request)),
  );

  app.post(
    "/api/notifications/notified",
    route({
      summary: "The panel was opened (mark all notified)",
      action: "self",
      response: dataAnswer(notificationsUpdatedSchema),
    }),
    async (request) => markAllNotificationsNotified(ctx, await requireActor(request), requestInput(request)),
  );
}
