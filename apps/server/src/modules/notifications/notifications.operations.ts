/**
 * One's own notifications, the writes (SPEC §4 states; lib/operations.ts): toggle seen, "Clear all" (all
 * seen) and "panel opened" (all notified). Each touches the caller's rows only (another user's
 * notification is a 404, as if it did not exist) and tells the caller's other tabs.
 */
import { markAllSeenSchema, updateNotificationSchema } from "@redline/shared";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { notifications } from "../../db/schema/index.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { operation, withParams } from "../../lib/operations.ts";
import { publish } from "../../lib/realtime.ts";
import type { Actor } from "../auth/session.ts";
import { ownedBy as mine } from "./notifications.policy.ts";
import { presentNotifications } from "./notifications.presenter.ts";

const notificationParams = z.object({ notificationId: z.string().min(1).max(64) });

const changed = (tx: Parameters<typeof publish>[0], userId: string) =>
  publish(tx, `user:${userId}`, { type: "notifications.changed" });

export const markNotificationSeen = operation(
  "notifications.mark",
  withParams(notificationParams, updateNotificationSchema),
  async (ctx, actor: Actor, { notificationId, isSeen }) => {
    const { db } = ctx.database;
    const [row] = await db.transaction(async (tx) => {
      const updated = await tx
        .update(notifications)
        .set({ isSeen })
        .where(mine(actor.user.id, eq(notifications.id, notificationId)))
        .returning();
      if (updated.length > 0) await changed(tx, actor.user.id);
      return updated;
    });
    if (!row) throw new NotFoundError("Notification not found.", "notification-not-found");
    return { data: (await presentNotifications(db, [row]))[0] };
  },
);

/** "Clear all": every notification (or the filtered project's) seen. */
export const markAllNotificationsSeen = operation(
  "notifications.clearAll",
  markAllSeenSchema,
  async (ctx, actor: Actor, { projectId }) => {
    const updated = await ctx.database.db.transaction(async (tx) => {
      const rows = await tx
        .update(notifications)
        .set({ isSeen: true })
        .where(
          mine(
            actor.user.id,
            eq(notifications.isSeen, false),
            projectId ? eq(notifications.projectId, projectId) : undefined,
          ),
        )
        .returning({ id: notifications.id });
      if (rows.length > 0) await changed(tx, actor.user.id);
      return rows.length;
    });
    return { data: { updated } };
  },
);

/** The panel was opened: everything in it has been shown, so the badge goes. */
export const markAllNotificationsNotified = operation(
  "notifications.opened",
  z.object({}).strict(),
  async (ctx, actor: Actor) => {
    const updated = await ctx.database.db.transaction(async (tx) => {
      const rows = await tx
        .update(notifications)
        .set({ isNotified: true })
        .where(mine(actor.user.id, eq(notifications.isNotified, false)))
        .returning({ id: notifications.id });
      if (rows.length > 0) await changed(tx, actor.user.id);
      return rows.length;
    });
    return { data: { updated } };
  },
);
