import { describe, expect, it } from "vitest";
import { outwardEventOf } from "./integration-events.ts";

const APP = "https://redline.example";
const place = { projectId: "p1", pageId: "g1", versionId: "v1" };

describe("which ledger events a webhook carries", () => {
  it("tells a page's approval, not its approval taken back", () => {
    const approval = (approved: boolean) =>
      outwardEventOf(
        {
          type: "page.approval",
          actor: { userId: "u" },
          version: { id: "v1", ...place },
          approved,
          isChange: true,
        },
        APP,
      );
    expect(approval(true)).toMatchObject({
      type: "page.approved",
      projectId: "p1",
      data: { pageId: "g1", versionId: "v1", url: `${APP}/project/p1/g1` },
    });
    expect(approval(false)).toBeNull();
  });

  it("tells a ticket moved to another list, and a reply with its text", () => {
    expect(
      outwardEventOf(
        {
          type: "ticket.changed",
          projectId: "p1",
          states: [{ ticketId: "t1" }],
          moved: { fromListId: "a", toListId: "b" },
        },
        APP,
      ),
    ).toMatchObject({ type: "ticket.moved", data: { ticketId: "t1", fromListId: "a", toListId: "b" } });
    expect(
      outwardEventOf(
        { type: "ticket.replied", projectId: "p1", state: { ticketId: "t1" }, text: "On it" },
        APP,
      ),
    ).toMatchObject({ type: "ticket.replied", data: { ticketId: "t1", text: "On it" } });
  });

  it("tells a page added, as pages record it and as an older release's ledger holds it", () => {
    const version = { id: "v1", ...place };
    const expected = { type: "page.added", data: { pageId: "g1", versionId: "v1" } };
    expect(outwardEventOf({ type: "page.added", actor: { userId: "u" }, version }, APP)).toMatchObject(
      expected,
    );
    expect(
      outwardEventOf(
        { type: "notify:page.added", event: { on: "page.added", actor: { userId: "u" }, version } },
        APP,
      ),
    ).toMatchObject(expected);
  });

  it("passes over events no webhook may hear", () => {
    expect(outwardEventOf({ type: "notify:member.added", event: { on: "member.added" } }, APP)).toBeNull();
    expect(outwardEventOf({ type: "realtime" }, APP)).toBeNull();
    // A card reordered within its list, an approval repeated, a comment edited: nothing to tell.
    expect(
      outwardEventOf({ type: "ticket.changed", projectId: "p1", states: [{ ticketId: "t1" }] }, APP),
    ).toBeNull();
    expect(
      outwardEventOf(
        { type: "page.approval", version: { id: "v1", ...place }, approved: true, isChange: false },
        APP,
      ),
    ).toBeNull();
    const ref = { id: "c1", ...place };
    expect(outwardEventOf({ type: "comment.updated", ref, resolves: false }, APP)).toBeNull();
    expect(outwardEventOf({ type: "comment.updated", ref, resolves: true }, APP)).toMatchObject({
      type: "comment.resolved",
      data: { commentId: "c1", url: `${APP}/project/p1/g1` },
    });
  });

  it("tells a slide's comment, reply and resolve with its slide and a link to the comment on it", () => {
    const ref = { id: "c1", projectId: "p1", pageId: null, versionId: null, slideId: "s2" };
    const url = `${APP}/project/p1?id=c1`;
    expect(outwardEventOf({ type: "comment.created", actor: { userId: "u" }, ref, text: "Hi" }, APP)).toEqual(
      {
        type: "comment.created",
        projectId: "p1",
        actor: { userId: "u" },
        data: { projectId: "p1", slideId: "s2", commentId: "c1", text: "Hi", url },
      },
    );
    expect(outwardEventOf({ type: "comment.replied", ref, text: "Yes" }, APP)).toMatchObject({
      type: "comment.replied",
      data: { slideId: "s2", commentId: "c1", text: "Yes", url },
    });
    expect(outwardEventOf({ type: "comment.updated", ref, resolves: true }, APP)).toMatchObject({
      type: "comment.resolved",
      data: { slideId: "s2", commentId: "c1", url },
    });
    expect(outwardEventOf({ type: "comment.updated", ref, resolves: false }, APP)).toBeNull();
    // Neither a page's nor a slide's: nothing.
    expect(
      outwardEventOf({ type: "comment.created", ref: { ...ref, slideId: null }, text: "?" }, APP),
    ).toBeNull();
  });
});
