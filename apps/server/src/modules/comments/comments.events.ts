/**
 * A comment's domain events (issue #28): each write records one with `recordEvent(tx, event)` inside its
 * transaction, and this file says what follows from it — which rooms hear of it and what each reader sees
 * (the comment with that reader's abilities), and who is notified (SPEC §3: a new comment its project's
 * people, a reply the thread's authors, a resolve the comment's author; a mention as a mention).
 */
import { type Comment, extractMentions } from "@redline/shared";
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { commentEntries, pages } from "../../db/schema/index.ts";
import type { LedgerEvent } from "../../lib/ledger.ts";
import { type Fanned, fanOut, readerView, recordEvent } from "../../lib/realtime.ts";
import { notifies, type Recipient, recipientRule } from "../notifications/notifications.rules.ts";
import { withCommentAbilities } from "./comments.policy.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * A member, or a guest by their identity: a guest of the public link, or someone writing through an
 * integration (`integration`: a reply written in Slack, which that integration must not send back).
 */
export type CommentActor =
  | { userId: string; guestIdentity?: undefined }
  | { userId?: undefined; guestIdentity: string; integration?: string };

/** A comment's place: a page's version, or (an illustration project's) a slide — `slideId` then. */
export interface CommentRef {
  id: string;
  projectId: string;
  pageId: string | null;
  versionId: string | null;
  slideId?: string | null;
}

export const commentRef = (comment: CommentRef): CommentRef => ({
  id: comment.id,
  projectId: comment.projectId,
  pageId: comment.pageId,
  versionId: comment.versionId,
  ...(comment.slideId && { slideId: comment.slideId }),
});

export type CommentEvent =
  /** A comment pinned, with its first entry's text (`comment`: as it now reads, for the rooms). */
  | { type: "comment.created"; actor: CommentActor; ref: CommentRef; text: string; comment?: Comment }
  /** A reply added. */
  | { type: "comment.replied"; actor: CommentActor; ref: CommentRef; text: string; comment?: Comment }
  /** Resolved, reopened, moved or re-anchored; `resolves` when it went from open to resolved. An
   *  integration's actor: a task tracker's card closed or reopened there (integrations/trackers). */
  | {
      type: "comment.updated";
      actor: { userId: string } | { integration: string };
      ref: CommentRef;
      resolves: boolean;
      comment?: Comment;
    }
  /** An entry's text edited, or a reply deleted. */
  | { type: "comment.edited"; ref: CommentRef; comment?: Comment }
  /** The comment deleted (its first entry was). */
  | { type: "comment.deleted"; ref: CommentRef }
  /** A removed slide's comment shown again: an undo brought its slide back (ADR 0044). No one is notified. */
  | { type: "comment.restored"; ref: CommentRef; comment?: Comment }
  /** A version's comments copied from the previous version's unresolved ones. */
  | { type: "comment.copied"; projectId: string; versionId: string; commentIds: string[] };

export function recordCommentEvent(tx: Pick<Tx, "execute">, event: CommentEvent): Promise<void> {
  return recordEvent(tx, event);
}

type Of<T extends CommentEvent["type"]> = Extract<CommentEvent, { type: T }> & LedgerEvent;

const room = (projectId: string) => `project:${projectId}` as const;

/** The comment as it now reads goes with the event, so no reviewer (nor the writer's tab) refetches. */
function changed({ ref, comment }: { ref: CommentRef; comment?: Comment }): Fanned {
  return [
    {
      room: room(ref.projectId),
      event: {
        type: "comments.changed",
        projectId: ref.projectId,
        versionId: ref.versionId,
        ...(ref.slideId && { slideId: ref.slideId }),
        commentId: ref.id,
        comment,
      },
    },
  ];
}

/** A comment come into sight: pinned, or shown again with its slide (ADR 0044). */
function created({ ref, comment }: { ref: CommentRef; comment?: Comment }): Fanned {
  return [
    {
      room: room(ref.projectId),
      event: {
        type: "comments.created",
        projectId: ref.projectId,
        versionId: ref.versionId,
        ...(ref.slideId && { slideId: ref.slideId }),
        commentId: ref.id,
        comment,
      },
    },
  ];
}

fanOut<Of<"comment.created">>("comment.created", created);
fanOut<Of<"comment.restored">>("comment.restored", created);
fanOut<Of<"comment.replied">>("comment.replied", changed);
fanOut<Of<"comment.updated">>("comment.updated", changed);
fanOut<Of<"comment.edited">>("comment.edited", changed);
fanOut<Of<"comment.deleted">>("comment.deleted", ({ ref }) => [
  {
    room: room(ref.projectId),
    event: {
      type: "comments.deleted",
      projectId: ref.projectId,
      versionId: ref.versionId,
      ...(ref.slideId && { slideId: ref.slideId }),
      commentId: ref.id,
    },
  },
]);
fanOut<Of<"comment.copied">>("comment.copied", ({ projectId, versionId, commentIds }) =>
  commentIds.map((commentId) => ({
    room: room(projectId),
    event: { type: "comments.created", projectId, versionId, commentId },
  })),
);

readerView("comments.created", (event, reader) =>
  event.comment ? { ...event, comment: withCommentAbilities(reader, event.comment) } : null,
);
readerView("comments.changed", (event, reader) =>
  event.comment ? { ...event, comment: withCommentAbilities(reader, event.comment) } : null,
);

notifies<Of<"comment.created">>("comment.created", ({ actor, ref, text }) => ({
  on: "comment.created",
  actor,
  comment: ref,
  text,
}));
notifies<Of<"comment.replied">>("comment.replied", ({ actor, ref, text }) => ({
  on: "comment.replied",
  actor,
  comment: ref,
  text,
}));
notifies<Of<"comment.updated">>("comment.updated", ({ actor, ref, resolves }) =>
  resolves && "userId" in actor ? { on: "comment.resolved", actor, comment: ref } : null,
);

/** A new comment: its project's people; a reply: the thread's authors. Mentioned ones hear they were. */
async function mentionedAndAudience(
  tx: Tx,
  { on, text, comment }: { on: "comment.created" | "comment.replied"; text: string; comment: CommentRef },
  people: Map<string, unknown>,
): Promise<Recipient[]> {
  const isReply = on === "comment.replied";
  const mentioned = new Set(extractMentions(text).filter((uid) => people.has(uid)));
  const audience = isReply ? await threadAuthors(tx, comment.id) : [...people.keys()];
  // A slide's comment (an illustration project) tells of itself with SPEC §3's illustration types.
  const kind = comment.slideId ? "illustration" : "web";
  const recipients: Recipient[] = [...mentioned].map((userId) => ({
    userId,
    type: isReply ? `${kind}-comment-reply-mention` : `${kind}-comment-mention`,
  }));
  const told = isReply ? (`${kind}-comment-reply` as const) : await newCommentType(tx, comment);
  for (const userId of audience) {
    if (!mentioned.has(userId) && people.has(userId)) recipients.push({ userId, type: told });
  }
  return recipients;
}

/**
 * A new comment's type: `illustration-comment` on a slide, `web-comment` on a web page, and SPEC §3's
 * `false-comment` on a page that is an uploaded file (its `url` is 'image', SPEC §3): the type the spec's
 * product gives a comment on a page that is not a web page. All three read 'commented on page'.
 */
async function newCommentType(
  tx: Tx,
  comment: CommentRef,
): Promise<"illustration-comment" | "web-comment" | "false-comment"> {
  if (comment.slideId || !comment.pageId) return comment.slideId ? "illustration-comment" : "web-comment";
  const [page] = await tx.select({ url: pages.url }).from(pages).where(eq(pages.id, comment.pageId));
  return page?.url === "image" ? "false-comment" : "web-comment";
}

recipientRule("comment.created", mentionedAndAudience);
recipientRule("comment.replied", mentionedAndAudience);
recipientRule("comment.resolved", async (tx, { comment }, people) => {
  const [author] = await threadAuthors(tx, comment.id, 1);
  return author && people.has(author) ? [{ userId: author, type: "web-comment-resolve" }] : [];
});

/** The accounts that wrote the thread's entries, first author first (guests have none). */
async function threadAuthors(tx: Tx, commentId: string, limit?: number): Promise<string[]> {
  const query = tx
    .select({ userId: commentEntries.userId })
    .from(commentEntries)
    .where(eq(commentEntries.commentId, commentId))
    .orderBy(commentEntries.createdAt, commentEntries.id);
  const rows = limit ? await query.limit(limit) : await query;
  return [...new Set(rows.map((row) => row.userId).filter((id): id is string => Boolean(id)))];
}
