import type { Notification } from "@redline/shared";
import type { Database } from "../../db/index.ts";
import type { NotificationRow } from "../../db/schema/index.ts";
import type { LedgerEvent } from "../../lib/ledger.ts";
import { fanOut, readerView, recordEvents } from "../../lib/realtime.ts";
import { notificationCounts } from "./notifications.counts.ts";

type Executor = Pick<Database, "execute">;

/**
 * A notification written (or grouped again), as the ledger keeps it: one record that the mail consumer
 * reads and that reaches its recipient's tabs (the `user:` room, below).
 */
export interface NotificationCreated extends LedgerEvent {
  type: "notification.created";
  notificationId: string;
  userId: string;
  projectId: string | null;
  teamId: string | null;
  notification?: Notification;
}

fanOut<NotificationCreated>("notification.created", (event) => [
  {
    room: `user:${event.userId}`,
    event: {
      type: "notifications.created",
      projectId: event.projectId,
      ...(event.teamId && { teamId: event.teamId }),
      notificationId: event.notificationId,
      notification: event.notification,
    },
  },
]);

// A new notification comes with the reader's counts, read now that it is stored: the badge takes them as
// they are (adding one to a count the tab read meanwhile could count it twice).
readerView("notifications.created", async (event, reader, db) =>
  reader.userId ? { ...event, counts: await notificationCounts(db, reader.userId) } : event,
);

/** Notifications just written: recorded for their mail, and their recipients' tabs are told (one statement). */
export function announceNotifications(
  tx: Executor,
  written: readonly {
    row: Pick<NotificationRow, "id" | "userId" | "projectId" | "teamId">;
    notification: Notification | undefined;
  }[],
): Promise<void> {
  return recordEvents(
    tx,
    written.map(
      ({ row, notification }) =>
        ({
          type: "notification.created",
          notificationId: row.id,
          userId: row.userId,
          projectId: row.projectId,
          teamId: row.teamId,
          ...(notification && { notification }),
        }) satisfies NotificationCreated,
    ),
  );
}
