import type { Notification } from "@redline/shared";
import { describe, expect, it } from "vitest";
import { notificationText } from "./use-notifications-realtime.ts";

const notification = (fields: Partial<Notification>): Notification => ({
  id: "n1",
  type: "web-comment",
  projectId: "p1",
  pageId: "g1",
  versionId: "v1",
  commentId: "c1",
  actor: { uid: "u1", displayName: "Ada Lovelace", photoURL: null },
  context: { projectTitle: "Website", pageTitle: "Homepage" },
  length: 1,
  createdAt: "2026-11-24T10:00:00.000Z",
  isSeen: false,
  isNotified: false,
  ...fields,
});

describe("a new notification's toast", () => {
  it("says who did what, and where", () => {
    expect(notificationText(notification({}))).toBe("Ada Lovelace commented on page Homepage");
    expect(notificationText(notification({ type: "web-comment-reply" }))).toBe(
      "Ada Lovelace replied to your comment on Homepage",
    );
  });

  it("counts suggested edits, and names the project of an invitation", () => {
    expect(
      notificationText(
        notification({
          type: "web-inspect",
          context: { projectTitle: "Website", pageTitle: "Pricing", editsCount: 3 },
        }),
      ),
    ).toBe("Ada Lovelace suggested 3 edits on page Pricing");
    expect(notificationText(notification({ type: "project-share", pageId: null, versionId: null }))).toBe(
      "Ada Lovelace invited you to a project Website",
    );
  });
});
