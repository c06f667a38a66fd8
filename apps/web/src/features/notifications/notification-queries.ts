/**
 * The signed-in user's notifications. Keys follow the API routes: ['api', 'notifications', {projectId}]
 * is GET /api/notifications (paged by cursor), ['api', 'notifications', 'counts'] its counts. Toggling
 * one is optimistic; "Clear all" and "panel opened" refetch.
 */
import type { Notification, NotificationCounts, NotificationsPage } from "@redline/shared";
import {
  type InfiniteData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { snackbar } from "../../components/snackbar-store.ts";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { refetchFresh, restartReads } from "../../lib/fresh-reads.ts";

export const NOTIFICATIONS_KEY = ["api", "notifications"] as const;
export const COUNTS_KEY = ["api", "notifications", "counts"] as const;
const listKey = (projectId: string | null) => [...NOTIFICATIONS_KEY, { projectId }] as const;

export function useNotificationCounts() {
  return useQuery({
    queryKey: COUNTS_KEY,
    queryFn: async ({ signal }) =>
      (await api<{ data: NotificationCounts }>("/api/notifications/counts", { signal })).data,
  });
}

export function useNotifications(projectId: string | null, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: listKey(projectId),
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams();
      if (projectId) query.set("projectId", projectId);
      if (pageParam) query.set("before", pageParam);
      return api<NotificationsPage>(`/api/notifications?${query}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
  });
}

/** Everything about notifications is stale: a new one arrived, or another tab marked some. */
export function refreshNotifications(queryClient: ReturnType<typeof useQueryClient>) {
  return refetchFresh(queryClient, { queryKey: NOTIFICATIONS_KEY });
}

/**
 * The counts are the server's to tell — a count read just after a notification was stored holds it
 * already: those the event brought replace the badge's (a read under way is sent again), or they are read.
 */
export function receiveCounts(queryClient: ReturnType<typeof useQueryClient>, counts?: NotificationCounts) {
  if (!counts) return void refetchFresh(queryClient, { queryKey: COUNTS_KEY });
  queryClient.setQueryData<NotificationCounts>(COUNTS_KEY, counts);
  void restartReads(queryClient, { queryKey: COUNTS_KEY, exact: true });
}

type Pages = InfiniteData<NotificationsPage, string | null>;

/**
 * A notification arrived with the event: the loaded lists take it without asking the server (the
 * all-projects list and its project's filter gain it on top). One already held with the same count and
 * time — the same event heard twice — changes nothing; one held with another count is a repeat folded
 * into it (SPEC §3 length): it moves to the top with its new count. The counts are not touched: whether
 * a count already read holds this notification only the server can say (`receiveCounts`).
 */
export function receiveNotification(
  queryClient: ReturnType<typeof useQueryClient>,
  notification: Notification,
): void {
  let held: Notification | undefined;
  for (const [, data] of queryClient.getQueriesData<Pages>({ queryKey: NOTIFICATIONS_KEY })) {
    for (const page of data?.pages ?? []) held ??= page.data.find((item) => item.id === notification.id);
  }
  if (held && held.length === notification.length && held.createdAt === notification.createdAt) return;
  // The full list, and the project's own list (a team notification has no project: the full list only).
  const { projectId: ownProject } = notification;
  for (const projectId of new Set([null, ownProject])) {
    queryClient.setQueryData<Pages>(listKey(projectId), (data) =>
      data?.pages?.length
        ? {
            ...data,
            pages: data.pages.map((page, index) => {
              const others = page.data.filter((item) => item.id !== notification.id);
              return index === 0
                ? {
                    ...page,
                    data: [notification, ...others],
                    // The filter offers the projects the user has notifications from.
                    projects:
                      ownProject === null || page.projects.some((project) => project.id === ownProject)
                        ? page.projects
                        : [...page.projects, { id: ownProject, title: notification.context.projectTitle }],
                  }
                : { ...page, data: others };
            }),
          }
        : data,
    );
  }
  // A read of a list under way may answer with what was there before.
  void restartReads(queryClient, { queryKey: NOTIFICATIONS_KEY, predicate: isList });
}

const isList = ({ queryKey }: { queryKey: readonly unknown[] }) => typeof queryKey[2] === "object";

export function useToggleSeen() {
  const queryClient = useQueryClient();
  const patch = (id: string, isSeen: boolean) =>
    queryClient.setQueriesData<Pages>({ queryKey: NOTIFICATIONS_KEY }, (data) =>
      data?.pages
        ? {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              data: page.data.map((item) => (item.id === id ? { ...item, isSeen } : item)),
            })),
          }
        : data,
    );
  return useMutation({
    mutationFn: ({ notification, isSeen }: { notification: Notification; isSeen: boolean }) =>
      api(`/api/notifications/${encodeURIComponent(notification.id)}`, { method: "PATCH", body: { isSeen } }),
    onMutate: async ({ notification, isSeen }) => {
      await queryClient.cancelQueries({ queryKey: NOTIFICATIONS_KEY });
      patch(notification.id, isSeen);
      queryClient.setQueryData<NotificationCounts>(COUNTS_KEY, (counts) =>
        counts && notification.isSeen !== isSeen
          ? { ...counts, unseen: Math.max(0, counts.unseen + (isSeen ? -1 : 1)) }
          : counts,
      );
    },
    onError: (error, { notification }) => {
      patch(notification.id, notification.isSeen);
      snackbar.error(errorMessage(error));
    },
    onSettled: () => refreshNotifications(queryClient),
  });
}

/** "Clear all": every notification (of the filtered project, when one is chosen) seen. */
export function useMarkAllSeen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (projectId: string | null) =>
      api("/api/notifications/seen", { method: "POST", body: projectId ? { projectId } : {} }),
    onError: (error) => snackbar.error(errorMessage(error)),
    onSettled: () => refreshNotifications(queryClient),
  });
}

/** The panel opened: the badge goes at once, the server records it. */
export function useMarkAllNotified() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api("/api/notifications/notified", { method: "POST", body: {} }),
    onMutate: () =>
      queryClient.setQueryData<NotificationCounts>(COUNTS_KEY, (counts) =>
        counts ? { ...counts, notNotified: 0 } : counts,
      ),
    onSettled: () => refreshNotifications(queryClient),
  });
}
