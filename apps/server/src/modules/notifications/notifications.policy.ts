/**
 * Notifications belong to their recipient alone: only they read one, mark it seen or notified. Project
 * access plays no part (who *receives* a notification is decided from the project's policies in
 * notify.ts). Because the rule is "the recipient", routes apply it as a query scope (`ownedBy`): another
 * user's notification is never loaded, so it answers 404 as if it did not exist.
 */
import { and, eq, type SQL } from "drizzle-orm";
import { notifications } from "../../db/schema/index.ts";

export type NotificationAction = "notifications.read" | "notifications.update";

export interface NotificationReader {
  userId: string | null;
}

const isRecipient = (reader: NotificationReader, notification: { userId: string }) =>
  reader.userId !== null && reader.userId === notification.userId;

export const NOTIFICATION_POLICY: Record<
  NotificationAction,
  (reader: NotificationReader, notification: { userId: string }) => boolean
> = {
  "notifications.read": isRecipient,
  "notifications.update": isRecipient,
};

export function canNotification(
  reader: NotificationReader,
  action: NotificationAction,
  notification: { userId: string },
): boolean {
  return NOTIFICATION_POLICY[action](reader, notification);
}

/** The policy as a query condition: the reader's own notifications (and any further condition). */
export function ownedBy(userId: string, ...more: (SQL | undefined)[]): SQL | undefined {
  return and(eq(notifications.userId, userId), ...more);
}
