import type { Notification, NotificationCounts, NotificationsPage } from "@redline/shared";
import { type InfiniteData, QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { COUNTS_KEY, NOTIFICATIONS_KEY, receiveCounts, receiveNotification } from "./notification-queries.ts";

const notification = (id: string, projectId = "p1"): Notification => ({
  id,
  type: "web-comment",
  projectId,
  pageId: "g1",
  versionId: "v1",
  commentId: "c1",
  actor: { uid: "u1", displayName: "Ada Lovelace", photoURL: null },
  context: { projectTitle: "Website", pageTitle: "Homepage" },
  length: 1,
  createdAt: "2026-11-24T10:00:00.000Z",
  isSeen: false,
  isNotified: false,
});

type Pages = InfiniteData<NotificationsPage, string | null>;
const pages = (...ids: string[]): Pages => ({
  pages: [
    {
      data: ids.map((id) => notification(id)),
      nextCursor: null,
      projects: ids.length ? [{ id: "p1", title: "Website" }] : [],
    },
  ],
  pageParams: [null],
});
const list = (client: QueryClient, projectId: string | null) =>
  client.getQueryData<Pages>([...NOTIFICATIONS_KEY, { projectId }])?.pages[0]?.data.map((item) => item.id);

describe("a notification carried by its event", () => {
  it("joins the loaded lists on top, and leaves the counts to the server", () => {
    const client = new QueryClient();
    client.setQueryData<NotificationCounts>(COUNTS_KEY, { unseen: 2, notNotified: 0 });
    client.setQueryData([...NOTIFICATIONS_KEY, { projectId: null }], pages("n1"));
    client.setQueryData([...NOTIFICATIONS_KEY, { projectId: "p1" }], pages("n1"));
    client.setQueryData([...NOTIFICATIONS_KEY, { projectId: "p2" }], pages());

    receiveNotification(client, notification("n2"));

    // A count read after the notification was stored holds it already: raising it here counted it twice.
    expect(client.getQueryData(COUNTS_KEY)).toEqual({ unseen: 2, notNotified: 0 });
    expect(list(client, null)).toEqual(["n2", "n1"]);
    expect(list(client, "p1")).toEqual(["n2", "n1"]);
    expect(list(client, "p2")).toEqual([]);
  });

  it("adds its project to the filter when it is the first from that project", () => {
    const client = new QueryClient();
    client.setQueryData<NotificationCounts>(COUNTS_KEY, { unseen: 0, notNotified: 0 });
    client.setQueryData([...NOTIFICATIONS_KEY, { projectId: null }], pages("n1"));
    receiveNotification(client, { ...notification("n2", "p9"), context: { projectTitle: "Shop" } });
    receiveNotification(client, notification("n3"));
    expect(
      client.getQueryData<Pages>([...NOTIFICATIONS_KEY, { projectId: null }])?.pages[0]?.projects,
    ).toEqual([
      { id: "p1", title: "Website" },
      { id: "p9", title: "Shop" },
    ]);
  });

  it("puts a team notification (no project) in the full list once, and no project in the filter", () => {
    const client = new QueryClient();
    client.setQueryData<NotificationCounts>(COUNTS_KEY, { unseen: 0, notNotified: 0 });
    client.setQueryData([...NOTIFICATIONS_KEY, { projectId: null }], pages("n1"));
    const left: Notification = {
      ...notification("n2"),
      type: "team-member-left",
      projectId: null,
      pageId: null,
      versionId: null,
      commentId: null,
      teamId: "t1",
      context: { projectTitle: "", teamName: "Acme Studio" },
    };
    receiveNotification(client, left);
    expect(list(client, null)).toEqual(["n2", "n1"]);
    expect(
      client.getQueryData<Pages>([...NOTIFICATIONS_KEY, { projectId: null }])?.pages[0]?.projects,
    ).toEqual([{ id: "p1", title: "Website" }]);
    expect(client.getQueryData(COUNTS_KEY)).toEqual({ unseen: 0, notNotified: 0 });
  });

  it("lists the same event once when it is heard twice", () => {
    const client = new QueryClient();
    client.setQueryData<NotificationCounts>(COUNTS_KEY, { unseen: 0, notNotified: 0 });
    client.setQueryData([...NOTIFICATIONS_KEY, { projectId: null }], pages());
    receiveNotification(client, notification("n1"));
    receiveNotification(client, notification("n1"));
    expect(list(client, null)).toEqual(["n1"]);
  });

  it("moves a repeat folded into a held notification to the top, with its count", () => {
    const client = new QueryClient();
    client.setQueryData<NotificationCounts>(COUNTS_KEY, { unseen: 2, notNotified: 0 });
    const seenByBell = (id: string) => ({ ...notification(id), isNotified: true });
    client.setQueryData([...NOTIFICATIONS_KEY, { projectId: null }], {
      ...pages(),
      pages: [{ data: [seenByBell("n2"), seenByBell("n1")], nextCursor: null, projects: [] }],
    });
    const folded = { ...notification("n1"), length: 3, createdAt: "2026-11-24T10:05:00.000Z" };
    // The list takes it at once; the counts are the server's to tell.
    receiveNotification(client, folded);
    expect(list(client, null)).toEqual(["n1", "n2"]);
    expect(
      client.getQueryData<Pages>([...NOTIFICATIONS_KEY, { projectId: null }])?.pages[0]?.data[0]?.length,
    ).toBe(3);
    expect(client.getQueryData(COUNTS_KEY)).toEqual({ unseen: 2, notNotified: 0 });
  });

  it("puts the counts the event brought on the badge as they are, never adding to a count already read", () => {
    const client = new QueryClient();
    // Read after the notification was stored: it holds it already.
    client.setQueryData<NotificationCounts>(COUNTS_KEY, { unseen: 1, notNotified: 1 });
    receiveNotification(client, notification("n1"));
    receiveCounts(client, { unseen: 1, notNotified: 1 });
    expect(client.getQueryData(COUNTS_KEY)).toEqual({ unseen: 1, notNotified: 1 });
    receiveCounts(client, { unseen: 2, notNotified: 2 });
    expect(client.getQueryData(COUNTS_KEY)).toEqual({ unseen: 2, notNotified: 2 });
  });

  it("reads the counts again when the event could not carry them", () => {
    const client = new QueryClient();
    client.setQueryData<NotificationCounts>(COUNTS_KEY, { unseen: 1, notNotified: 1 });
    receiveCounts(client, undefined);
    expect(client.getQueryState(COUNTS_KEY)?.isInvalidated).toBe(true);
  });
});
