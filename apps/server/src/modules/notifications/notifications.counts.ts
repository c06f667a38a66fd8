/**
 * A user's notification counts (the bell's badge and the unseen total): read by GET
 * /api/notifications/counts and, after each new notification, by the realtime socket for its reader.
 */
import type { NotificationCounts } from "@redline/shared";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { notifications } from "../../db/schema/index.ts";
import { ownedBy } from "./notifications.policy.ts";

export async function notificationCounts(db: Database, userId: string): Promise<NotificationCounts> {
  const [counts] = await db
    .select({
      unseen: sql<number>`(count(*) filter (where not ${notifications.isSeen}))::int`,
      notNotified: sql<number>`(count(*) filter (where not ${notifications.isNotified}))::int`,
    })
    .from(notifications)
    .where(ownedBy(userId));
  return counts ?? { unseen: 0, notNotified: 0 };
}
