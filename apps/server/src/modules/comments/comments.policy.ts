/**
 * Who may do what with comments and the entries of their threads. Project access decides most of it;
 * an entry's author may edit and delete it; guests of a public link whose settings allow comments may
 * write and reply (text only), never resolve, move or edit. Routes authorize through `authorizeComment`;
 * presenters and the realtime fan-out attach `commentAbilities` for each reader.
 */
import { type Comment, SHARING_MESSAGES } from "@redline/shared";
import {
  allows,
  authorizeWith,
  CONTRIBUTORS,
  EDITORS,
  EVERY_ACCESS,
  notAccessible,
  type PolicyActor,
  type PolicyTable,
} from "../../lib/policy.ts";
import { discussionSubject, entryAbilities, isEntryAuthor } from "../discussion/discussion.ts";

export type CommentAction =
  | "comments.read"
  | "comments.create"
  | "comments.reply"
  | "comments.attach"
  | "comments.resolve"
  | "comments.move"
  /** Copying the previous version's unresolved comments into a new one is part of managing versions. */
  | "comments.copy"
  | "entries.edit"
  | "entries.delete";

/** The entry an `entries.*` action is about (its author); comment actions need nothing more. */
export interface CommentTarget {
  authorId?: string | null;
}

export const COMMENT_POLICY: PolicyTable<CommentAction, CommentTarget> = {
  "comments.read": [{ access: EVERY_ACCESS, guests: true }],
  "comments.create": [{ access: CONTRIBUTORS, guests: true }],
  "comments.reply": [{ access: CONTRIBUTORS, guests: true }],
  "comments.attach": [{ access: CONTRIBUTORS }],
  "comments.resolve": [{ access: CONTRIBUTORS }],
  "comments.move": [{ access: CONTRIBUTORS }],
  "comments.copy": [{ access: EDITORS }],
  "entries.edit": [{ access: EVERY_ACCESS, when: isEntryAuthor }],
  "entries.delete": [{ access: EDITORS }, { access: EVERY_ACCESS, when: isEntryAuthor }],
};

const LINK_COMMENTS_OFF = { message: "This link does not allow comments.", code: "link-comments-off" };

export function canComment(actor: PolicyActor, action: CommentAction, target: CommentTarget = {}): boolean {
  return allows(COMMENT_POLICY, actor, action, target);
}

export function authorizeComment(
  actor: PolicyActor,
  action: CommentAction,
  target: CommentTarget = {},
): void {
  authorizeWith(
    COMMENT_POLICY,
    {
      read: "comments.read",
      notFound: notAccessible(SHARING_MESSAGES.notAccessible, "project-not-accessible"),
      forbidden: {
        "comments.create": { message: "You are not allowed to do that.", guest: LINK_COMMENTS_OFF },
        "comments.reply": { message: "You are not allowed to do that.", guest: LINK_COMMENTS_OFF },
        "entries.edit": { message: "Only its author can edit a comment." },
        "entries.delete": { message: "Only its author can delete a comment." },
      },
    },
    actor,
    action,
    target,
  );
}

/** A comment's thread as a discussion (modules/discussion): its actions in the table above. */
export const COMMENT_DISCUSSION = discussionSubject(
  "comment",
  {
    read: "comments.read",
    write: "comments.reply",
    attach: "comments.attach",
    edit: "entries.edit",
    delete: "entries.delete",
  },
  { authorize: authorizeComment, can: canComment },
  (entry): CommentTarget => ({ authorId: entry?.authorId }),
);

/** The comment as this reader sees it: its abilities and each entry's, from the table above. */
export function withCommentAbilities(actor: PolicyActor, comment: Comment): Comment {
  return {
    ...comment,
    abilities: {
      reply: canComment(actor, "comments.reply"),
      attach: canComment(actor, "comments.attach"),
      resolve: canComment(actor, "comments.resolve"),
      move: canComment(actor, "comments.move"),
    },
    thread: comment.thread.map((entry) => ({
      ...entry,
      abilities: entryAbilities(COMMENT_DISCUSSION, actor, entry.userId),
    })),
  };
}

/** Nobody's abilities: what an event carries until the fan-out fills them in for each reader. */
export const NO_ACTOR: PolicyActor = { userId: null, access: null, isGuest: false };
