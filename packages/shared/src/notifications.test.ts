import { describe, expect, it } from "vitest";
import {
  emailPreferenceOf,
  isToastShownOn,
  listNotificationsQuerySchema,
  type Notification,
  notificationMessage,
  notificationSubject,
  notificationTarget,
} from "./notifications.ts";
import { badgeCount } from "./titles.ts";

const base: Notification = {
  id: "n1",
  type: "web-comment",
  projectId: "p1",
  pageId: "pg1",
  versionId: "v1",
  commentId: "c1",
  actor: { uid: "u1", displayName: "Ada", photoURL: null },
  context: { projectTitle: "Marketing site", pageTitle: "Homepage with hero banner" },
  length: 1,
  createdAt: "2027-01-01T00:00:00.000Z",
  isSeen: false,
  isNotified: false,
};
const of = (patch: Partial<Notification>): Notification => ({ ...base, ...patch });

describe("notification wording (SPEC shared message wording)", () => {
  it("says what happened after the actor's name", () => {
    expect(notificationMessage(of({ type: "web-comment" }))).toBe("commented on page");
    expect(notificationMessage(of({ type: "browse-ticket-add" }))).toBe("created a ticket on");
    // A widget report kept past the board's ticket limit says so.
    expect(
      notificationMessage(
        of({ type: "browse-ticket-add", context: { projectTitle: "Shop", ticketLimit: 20 } }),
      ),
    ).toBe("created a ticket past the limit of 20 tickets on");
    expect(notificationMessage(of({ type: "web-comment-mention" }))).toBe("mentioned you in a comment on");
    expect(notificationMessage(of({ type: "web-comment-reply-mention" }))).toBe(
      "mentioned you in a comment on",
    );
    expect(notificationMessage(of({ type: "web-comment-reply" }))).toBe("replied to your comment on");
    expect(notificationMessage(of({ type: "project-share" }))).toBe("invited you to a project");
    expect(notificationMessage(of({ type: "team-member-add" }))).toBe("invited you to team");
    expect(notificationMessage(of({ type: "web-page-add" }))).toBe("added page");
    expect(notificationMessage(of({ type: "page-approved" }))).toBe("approved page");
    expect(notificationMessage(of({ type: "page-unapproved" }))).toBe("unapproved page");
    expect(notificationMessage(of({ type: "make-approver" }))).toBe("made you an approver of");
  });
  it("counts suggested edits", () => {
    const inspect = (editsCount: number) =>
      notificationMessage(of({ type: "web-inspect", context: { projectTitle: "P", editsCount } }));
    expect(inspect(3)).toBe("suggested 3 edits on page");
    expect(inspect(1)).toBe("suggested 1 edit on page");
  });
  it("shows the toast unless the last path segment is a quiet view", () => {
    expect(isToastShownOn("/projects")).toBe(true);
    expect(isToastShownOn("/project/p1/g1/v1/comment")).toBe(true);
    expect(isToastShownOn("/project/p1/g1/v1/inspect")).toBe(false);
    expect(isToastShownOn("/project/p1/g1/v1/preview/")).toBe(false);
    expect(isToastShownOn("/")).toBe(true);
  });
  it("counts repeats folded into one notification", () => {
    expect(notificationMessage(of({ type: "web-comment", length: 3 }))).toBe("left 3 comments on page");
    expect(notificationMessage(of({ type: "web-comment-reply", length: 2 }))).toBe(
      "replied 2 times to your comment on",
    );
    expect(notificationMessage(of({ type: "web-comment-resolve", length: 4 }))).toBe(
      "resolved 4 of your comments on",
    );
    expect(notificationMessage(of({ type: "web-comment-mention", length: 2 }))).toBe(
      "mentioned you in a comment on",
    );
  });
  it("names the page cut to 15 characters plus '...', or the project for an invitation", () => {
    expect(notificationSubject(base)).toBe("Homepage with h...");
    expect(notificationSubject(of({ context: { projectTitle: "P", pageTitle: "Pricing" } }))).toBe("Pricing");
    expect(notificationSubject(of({ type: "project-share", pageId: null }))).toBe("Marketing site");
  });
  it("shows the badge count capped at '9+'", () => {
    expect([1, 9, 10, 42].map(badgeCount)).toEqual(["1", "9", "9+", "9+"]);
  });
});

describe("a team's notifications (SPEC §4 member events)", () => {
  const team = (type: Notification["type"]) =>
    of({
      type,
      projectId: null,
      teamId: "t1",
      pageId: null,
      versionId: null,
      commentId: null,
      context: { projectTitle: "", teamName: "Studio", access: "member" },
    });
  it("says what happened, names the team and opens it", () => {
    expect(notificationMessage(team("team-member-add"))).toBe("invited you to team");
    expect(notificationMessage(team("team-member-access"))).toBe("changed your access in team");
    expect(notificationMessage(team("team-member-left"))).toBe("left your team");
    expect(notificationSubject(team("team-member-left"))).toBe("Studio");
    expect(notificationTarget(team("team-member-add"))).toBe("/team/t1");
    expect(emailPreferenceOf("team-member-add")).toBeNull();
  });
});

describe("notification targets", () => {
  it("opens the comment, the version's suggested edits, or the project", () => {
    expect(notificationTarget(base)).toBe("/project/p1/pg1/v1/comment?id=c1");
    expect(notificationTarget(of({ type: "web-inspect", commentId: null }))).toBe(
      "/project/p1/pg1/v1/inspect?activity=true",
    );
    expect(
      notificationTarget(of({ type: "project-share", pageId: null, versionId: null, commentId: null })),
    ).toBe("/project/p1");
    expect(notificationTarget(of({ type: "web-page-add", commentId: null }))).toBe(
      "/project/p1/pg1/v1/comment",
    );
  });
});

describe("listing query", () => {
  it("defaults the page size and accepts only a cursor it handed out", () => {
    expect(listNotificationsQuerySchema.parse({})).toEqual({ limit: 20 });
    expect(
      listNotificationsQuerySchema.parse({ limit: "5", before: "2027-01-01T00:00:00.000Z~abc_-1" }),
    ).toEqual({
      limit: 5,
      before: "2027-01-01T00:00:00.000Z~abc_-1",
    });
    for (const bad of [{ limit: "0" }, { limit: "101" }, { before: "2027-01-01" }, { other: "x" }])
      expect(listNotificationsQuerySchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});

describe("emailPreferenceOf", () => {
  it("maps each mailed kind to the preference that allows it, and invitations to none", () => {
    expect(emailPreferenceOf("web-comment")).toBe("comments");
    expect(emailPreferenceOf("web-comment-reply")).toBe("comments");
    expect(emailPreferenceOf("web-comment-mention")).toBe("mentions");
    expect(emailPreferenceOf("web-comment-reply-mention")).toBe("mentions");
    expect(emailPreferenceOf("web-comment-resolve")).toBe("commentResolve");
    expect(emailPreferenceOf("web-inspect")).toBe("edits");
    expect(emailPreferenceOf("page-approved")).toBe("pagesApproved");
    expect(emailPreferenceOf("project-share")).toBeNull();
  });
});

describe("a slide comment's notification", () => {
  it("leads to the slide editor with the comment open (SPEC §2 ?id=)", () => {
    const base = { projectId: "p1", pageId: null, versionId: null, commentId: "c 1" };
    for (const type of ["illustration-comment", "illustration-comment-reply-mention"] as const)
      expect(notificationTarget({ ...base, type })).toBe("/project/p1?id=c%201");
    expect(emailPreferenceOf("illustration-comment-mention")).toBe("mentions");
  });
});
