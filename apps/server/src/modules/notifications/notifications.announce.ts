import type { Notification } from "@redline/shared";
import type { Database } from "../../db/index.ts";
import type { NotificationRow } from "../../db/schema/index.ts";
import { type LedgerEvent, record } from "../../lib/ledger.ts";
import { publish } from "../../lib/realtime.ts";

type Executor = Pick<Database, "execute">;

/** The ledger's event for a notification written (or grouped again): what the mail consumer reads. */
export interface NotificationCreated extends LedgerEvent {
  type: "notification.created";
  notificationId: string;
}

/** A notification just written: its recipient's tabs are told, and it is recorded for its mail. */
export async function announceNotification(
  tx: Executor,
  row: Pick<NotificationRow, "id" | "userId" | "projectId" | "teamId">,
  notification: Notification | undefined,
): Promise<void> {
  await publish(tx, `user:${row.userId}`, {
    type: "notifications.created",
    projectId: row.projectId,
    ...(row.teamId && { teamId: row.teamId }),
    notificationId: row.id,
    notification,
  });
  await record(tx, { type: "notification.created", notificationId: row.id } satisfies NotificationCreated);
}
