/**
 * The discussion rules as each subject describes them: who writes, attaches, edits and deletes an entry,
 * and that an entry of a subject the actor cannot read is never even looked for.
 */
import { describe, expect, it, vi } from "vitest";
import { HttpError } from "../../lib/errors.ts";
import type { PolicyActor } from "../../lib/policy.ts";
import { COMMENT_DISCUSSION } from "../comments/comments.policy.ts";
import { conversationDiscussion } from "../conversations/conversations.policy.ts";
import { TICKET_DISCUSSION } from "../tickets/tickets.policy.ts";
import { authorizeNewEntry, entryAbilities, entryToChange } from "./discussion.ts";

const person = (userId: string, access: PolicyActor["access"]): PolicyActor => ({
  userId,
  access,
  isGuest: false,
});
const guest: PolicyActor = { userId: null, access: "comment", isGuest: true };
const outsider = person("sam", null);

/** The status a check throws, or "allowed". */
function outcome(check: () => void): number | "allowed" {
  try {
    check();
    return "allowed";
  } catch (error) {
    if (error instanceof HttpError) return error.statusCode;
    throw error;
  }
}

describe("discussion subjects", () => {
  it("lets an entry's author edit it, and an editor (not another contributor) delete it", () => {
    for (const subject of [COMMENT_DISCUSSION, TICKET_DISCUSSION]) {
      expect(entryAbilities(subject, person("ada", "comment"), "ada")).toEqual({ edit: true, delete: true });
      expect(entryAbilities(subject, person("bob", "comment"), "ada")).toEqual({
        edit: false,
        delete: false,
      });
      expect(entryAbilities(subject, person("eve", "edit"), "ada")).toEqual({ edit: false, delete: true });
      // A guest's entry (no author id) is no guest's to change.
      expect(entryAbilities(subject, guest, null)).toEqual({ edit: false, delete: false });
    }
  });

  it("keeps each subject's own rule: a viewer may edit a comment of theirs, not a ticket entry", () => {
    expect(entryAbilities(COMMENT_DISCUSSION, person("vera", "view"), "vera").edit).toBe(true);
    expect(entryAbilities(TICKET_DISCUSSION, person("vera", "view"), "vera").edit).toBe(false);
  });

  it("needs the right to attach for an entry that carries files or a video", () => {
    const viewer = person("vera", "view");
    expect(outcome(() => authorizeNewEntry(COMMENT_DISCUSSION, guest, { attachments: [] }))).toBe("allowed");
    expect(outcome(() => authorizeNewEntry(COMMENT_DISCUSSION, guest, { attachments: [], video: {} }))).toBe(
      403,
    );
    expect(outcome(() => authorizeNewEntry(TICKET_DISCUSSION, viewer, { attachments: [] }))).toBe(403);
    expect(outcome(() => authorizeNewEntry(TICKET_DISCUSSION, outsider, { attachments: [] }))).toBe(404);
    const inIt = conversationDiscussion(true);
    expect(outcome(() => authorizeNewEntry(inIt, guest, { attachments: [{}] }))).toBe("allowed");
    expect(
      outcome(() =>
        authorizeNewEntry(conversationDiscussion(false), person("carl", "comment"), { attachments: [] }),
      ),
    ).toBe(404);
  });

  it("never edits nor deletes a conversation's messages, and says so only to those who take part", () => {
    const bob = person("bob", "comment");
    expect(entryAbilities(conversationDiscussion(true), bob, "bob")).toEqual({ edit: false, delete: false });
    expect(outcome(() => conversationDiscussion(true).authorize(bob, "edit", { authorId: "bob" }))).toBe(403);
    expect(outcome(() => conversationDiscussion(false).authorize(bob, "delete", { authorId: "bob" }))).toBe(
      404,
    );
  });

  it("answers 404 for a subject the actor cannot read without looking for the entry", async () => {
    for (const subject of [COMMENT_DISCUSSION, TICKET_DISCUSSION, conversationDiscussion(false)]) {
      const load = vi.fn(async () => ({ userId: "sam" }));
      await expect(entryToChange(subject, outsider, "edit", load)).rejects.toMatchObject({ statusCode: 404 });
      expect(load).not.toHaveBeenCalled();
    }
  });

  it("gives the entry to change to its author, and 403 with the subject's text to someone else", async () => {
    const entry = { id: "e1", userId: "ada" };
    await expect(
      entryToChange(TICKET_DISCUSSION, person("ada", "comment"), "edit", async () => entry),
    ).resolves.toBe(entry);
    await expect(
      entryToChange(TICKET_DISCUSSION, person("bob", "comment"), "delete", async () => entry),
    ).rejects.toMatchObject({
      statusCode: 403,
      message: "Only its author or an editor can delete an entry.",
    });
    await expect(
      entryToChange(COMMENT_DISCUSSION, person("bob", "comment"), "edit", async () => entry),
    ).rejects.toMatchObject({ statusCode: 403, message: "Only its author can edit a comment." });
  });
});
