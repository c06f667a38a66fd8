/**
 * The notifications consumer: reads the notification events modules record (`notify`, notify.ts) after
 * its durable cursor, and makes each event's notifications in one transaction with the cursor's advance
 * (exactly once). Each notification it makes is recorded in turn (`notification.created`) for the mail
 * consumer (notification-mail.ts), in the same transaction.
 */

import type { AppContext } from "../../context.ts";
import type { LedgerEvent } from "../../lib/ledger.ts";
import { deliverNotification, NOTIFY_EVENT_PREFIX, type NotificationEvent } from "./notify.ts";

interface RecordedNotification extends LedgerEvent {
  event: NotificationEvent;
}

export function startNotificationsConsumer(ctx: Pick<AppContext, "ledger">): Promise<void> {
  return ctx.ledger.consume<RecordedNotification>({
    name: "notifications",
    accepts: (event): event is RecordedNotification => event.type.startsWith(NOTIFY_EVENT_PREFIX),
    handle: (tx, { event }, recorded) => deliverNotification(tx, event, recorded.createdAt),
  });
}
