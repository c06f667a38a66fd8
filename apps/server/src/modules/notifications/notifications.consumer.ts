/**
 * The notifications consumer: reads, after its durable cursor, the domain events a module gave a rule
 * (`notifies`, notifications.rules.ts) and the notification events modules still record themselves
 * (`notify`, notify.ts), and makes each event's notifications in one transaction with the cursor's advance
 * (exactly once). Each notification it makes is recorded in turn (`notification.created`) for the mail
 * consumer (notification-mail.ts), in the same transaction.
 */

import type { AppContext } from "../../context.ts";
import type { LedgerEvent } from "../../lib/ledger.ts";
import { makesNotifications, notificationOf } from "./notifications.rules.ts";
import { deliverNotification, NOTIFY_EVENT_PREFIX, type NotificationEvent } from "./notify.ts";

interface RecordedNotification extends LedgerEvent {
  event: NotificationEvent;
}

const isNotifyEvent = (event: LedgerEvent): event is RecordedNotification =>
  event.type.startsWith(NOTIFY_EVENT_PREFIX);

export function startNotificationsConsumer(ctx: Pick<AppContext, "ledger">): Promise<void> {
  return ctx.ledger.consume<LedgerEvent>({
    name: "notifications",
    accepts: (event): event is LedgerEvent => isNotifyEvent(event) || makesNotifications(event.type),
    handle: async (tx, event, recorded) => {
      const about = isNotifyEvent(event) ? event.event : notificationOf(event);
      if (about) await deliverNotification(tx, about, recorded.createdAt);
    },
  });
}
