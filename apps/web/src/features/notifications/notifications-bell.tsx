/**
 * The header's bell (SPEC §2): a badge with the notifications not yet shown ('9+' above 9); opening the
 * panel marks them notified. Marking seen — one, "Clear all", or opening one — asks first when the
 * page holds unsaved inspect edits (SPEC §4), through the same leave guard as signing out. The actions
 * live here, not in the panel, because the panel closes while that question is open.
 */
import { badgeCount, type Notification, notificationTarget } from "@redline/shared";
import { Bell } from "lucide-react";
import { Popover } from "radix-ui";
import { useState } from "react";
import { useNavigate } from "react-router";
import { confirmLeave } from "../session/leave-guard.ts";
import {
  useMarkAllNotified,
  useMarkAllSeen,
  useNotificationCounts,
  useToggleSeen,
} from "./notification-queries.ts";
import { NotificationsPanel } from "./notifications-panel.tsx";
import { useNotificationsRealtime } from "./use-notifications-realtime.ts";
import "./notifications.css";

/** Lets the guard's own re-render land before navigating, so the route change is not asked about twice. */
const nextTick = () => new Promise((resolve) => setTimeout(resolve, 0));

export function NotificationsBell({ notificationSound }: { notificationSound: boolean }) {
  useNotificationsRealtime(notificationSound);
  const navigate = useNavigate();
  const counts = useNotificationCounts();
  const markNotified = useMarkAllNotified();
  const toggleSeen = useToggleSeen();
  const markAllSeen = useMarkAllSeen();
  const [isOpen, setOpen] = useState(false);
  const fresh = counts.data?.notNotified ?? 0;

  const handleOpenChange = (open: boolean) => {
    setOpen(open);
    if (open && fresh > 0) markNotified.mutate();
  };
  const handleToggle = async (notification: Notification) => {
    if (!notification.isSeen && !(await confirmLeave())) return;
    toggleSeen.mutate({ notification, isSeen: !notification.isSeen });
  };
  const handleClearAll = async (projectId: string | null) => {
    if (!(await confirmLeave())) return;
    markAllSeen.mutate(projectId);
  };
  const handleOpenItem = async (notification: Notification) => {
    setOpen(false);
    if (!(await confirmLeave())) return;
    if (!notification.isSeen) toggleSeen.mutate({ notification, isSeen: true });
    await nextTick();
    navigate(notificationTarget(notification));
  };

  return (
    <Popover.Root open={isOpen} onOpenChange={handleOpenChange}>
      <Popover.Trigger
        className="icon-btn notifications-bell"
        aria-label={fresh > 0 ? `Notifications (${badgeCount(fresh)} new)` : "Notifications"}
      >
        <Bell size={18} aria-hidden />
        {fresh > 0 ? (
          <span className="notifications-bell__badge" data-testid="notifications-badge" aria-hidden>
            {badgeCount(fresh)}
          </span>
        ) : null}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="notifications" align="end" sideOffset={8} aria-label="Notifications">
          <NotificationsPanel
            hasUnseen={(counts.data?.unseen ?? 0) > 0}
            isClearing={markAllSeen.isPending}
            onToggle={handleToggle}
            onClearAll={handleClearAll}
            onOpenItem={handleOpenItem}
          />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
