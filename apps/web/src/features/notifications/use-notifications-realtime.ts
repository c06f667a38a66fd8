/**
 * Keeps the bell live through the tab's one socket (lib/realtime.ts), in the user's own room: a new
 * notification, carried by its event with the counts, joins the lists and the badge without a request, shows a toast for
 * 3 s and plays the chime unless the user turned the sound off or the view is a quiet one
 * (`isToastShownOn`, SPEC §4); marks made in another tab
 * refetch. The project lists
 * refetch when a project is shared with the user or their access to one changes or ends.
 */
import {
  isToastShownOn,
  NOTIFICATION_TOAST_MS,
  type Notification,
  notificationMessage,
  notificationSubject,
} from "@redline/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { showSnackbar } from "../../components/snackbar-store.ts";
import { refetchFresh } from "../../lib/fresh-reads.ts";
import { realtime } from "../../lib/realtime.ts";
import { PROJECTS_KEY } from "../projects/project-queries.ts";
import { TEAMS_KEY } from "../teams/team-queries.ts";
import { receiveCounts, receiveNotification, refreshNotifications } from "./notification-queries.ts";
import { playNotificationSound } from "./notification-sound.ts";

/** The toast's text: "Ada Lovelace commented on page Homepage with h...". */
export function notificationText(notification: Notification): string {
  return `${notification.actor.displayName} ${notificationMessage(notification)} ${notificationSubject(notification)}`;
}

export function useNotificationsRealtime(notificationSound: boolean): void {
  const queryClient = useQueryClient();
  // Read when a notification arrives, so turning the sound off takes effect without resubscribing.
  const isSoundOn = useRef(notificationSound);
  isSoundOn.current = notificationSound;
  useEffect(
    () =>
      realtime().subscribeUser({
        onEvent(event) {
          if (event.type === "notifications.changed") void refreshNotifications(queryClient);
          // A project shared with this user, or their access changed or taken away: the lists follow.
          if (event.type === "projects.changed") void refetchFresh(queryClient, { queryKey: PROJECTS_KEY });
          // A team of theirs changed (a name, someone's role, someone joined or left): teams follow, and
          // so do project lists (a team's projects come and go with one's place in it).
          if (event.type === "teams.changed") {
            void refetchFresh(queryClient, { queryKey: TEAMS_KEY });
            void refetchFresh(queryClient, { queryKey: PROJECTS_KEY });
          }
          if (event.type !== "notifications.created") return;
          // The event carries the notification (unless it was too large for the channel) and the counts
          // the server read once it was stored: both go in as they are, no request.
          receiveCounts(queryClient, event.counts);
          if (event.notification) receiveNotification(queryClient, event.notification);
          else void refreshNotifications(queryClient);
          if (!isToastShownOn(window.location.pathname)) return;
          showSnackbar(
            "info",
            event.notification ? notificationText(event.notification) : "You have a new notification.",
            { durationMs: NOTIFICATION_TOAST_MS, id: `notification-${event.notificationId}` },
          );
          if (isSoundOn.current) playNotificationSound();
        },
        onResync: () => {
          void refreshNotifications(queryClient);
          void refetchFresh(queryClient, { queryKey: PROJECTS_KEY });
        },
      }),
    [queryClient],
  );
}
