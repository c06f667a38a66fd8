/**
 * What comments, tickets and conversations have in common (issue #29, ADR 0047): a subject with a thread of
 * entries, written with files (and a video where the subject allows one), edited only by their author and
 * deleted under the subject's rule. Each subject describes itself once (`DiscussionSubject`: its policy's
 * actions, its texts) and its routes and operations go through here; what a subject does beyond its thread
 * (resolving a comment, moving a ticket, reading a conversation) stays in its own module.
 */
import type { Attachment, CommentAuthor, CommentEntry, EntryAbilities, VideoStatus } from "@redline/shared";
import { ForbiddenError } from "../../lib/errors.ts";
import type { PolicyActor } from "../../lib/policy.ts";
import { presentEntryVideo } from "../videos/present.ts";

/** What may be done with a subject's thread, each mapped to one action of the subject's own policy. */
export type DiscussionAction = "read" | "write" | "attach" | "edit" | "delete";

/** The entry an `edit` or `delete` is about: its author (null for a guest's). */
export interface EntryTarget {
  authorId: string | null;
}

/** The rule of an entry's edit (and a delete by its author): the actor wrote it. */
export const isEntryAuthor = (actor: PolicyActor, entry: { authorId?: string | null }): boolean =>
  actor.userId !== null && entry.authorId === actor.userId;

/** One subject of discussion, as it describes itself to this module. */
export interface DiscussionSubject {
  /** "comment", "ticket", "conversation": what its 404 and its logs call it. */
  readonly name: string;
  /** Throws as the subject's policy does: 404 when the actor may not read it, 403 when they may not do this. */
  authorize(actor: PolicyActor, action: DiscussionAction, entry?: EntryTarget): void;
  /** The same rule as a yes or no (an entry's abilities). */
  can(actor: PolicyActor, action: DiscussionAction, entry?: EntryTarget): boolean;
}

/**
 * A subject described by its own policy: which of its actions each discussion action is (null: its
 * entries never allow it — a conversation's messages are not edited), and the target its policy reads.
 */
export function discussionSubject<Action extends string, Target>(
  name: string,
  actions: Record<DiscussionAction, Action | null>,
  policy: {
    authorize(actor: PolicyActor, action: Action, target: Target): void;
    can(actor: PolicyActor, action: Action, target: Target): boolean;
  },
  targetOf: (entry?: EntryTarget) => Target,
): DiscussionSubject {
  return {
    name,
    authorize(actor, action, entry) {
      const own = actions[action];
      if (own) return policy.authorize(actor, own, targetOf(entry));
      policy.authorize(actor, actions.read!, targetOf(entry));
      throw new ForbiddenError(`A ${name}'s entries cannot be changed.`, "entry-unchangeable");
    },
    can(actor, action, entry) {
      const own = actions[action];
      return own !== null && policy.can(actor, own, targetOf(entry));
    },
  };
}

/** An entry that carries files or a video needs the right to attach them too. */
export function authorizeFiles(
  subject: DiscussionSubject,
  actor: PolicyActor,
  input: { attachments: readonly unknown[]; video?: unknown },
): void {
  if (input.attachments.length > 0 || input.video) subject.authorize(actor, "attach");
}

/** A new entry needs the right to write it, and to attach what it carries. */
export function authorizeNewEntry(
  subject: DiscussionSubject,
  actor: PolicyActor,
  input: { attachments: readonly unknown[]; video?: unknown },
): void {
  subject.authorize(actor, "write");
  authorizeFiles(subject, actor, input);
}

/**
 * The entry an edit or a delete changes, once allowed: the subject must be readable (else 404, before the
 * entry is even looked for), the entry must be in it (404), and the subject's rule must let this actor
 * change it (403: an edit is its author's, a delete the author's or the subject's editors').
 */
export async function entryToChange<Entry extends { userId: string | null }>(
  subject: DiscussionSubject,
  actor: PolicyActor,
  change: "edit" | "delete",
  load: () => Promise<Entry>,
): Promise<Entry> {
  subject.authorize(actor, "read");
  const entry = await load();
  subject.authorize(actor, change, { authorId: entry.userId });
  return entry;
}

/** An entry's Edit and Delete for this reader. */
export function entryAbilities(
  subject: DiscussionSubject,
  actor: PolicyActor,
  authorId: string | null,
): EntryAbilities {
  return {
    edit: subject.can(actor, "edit", { authorId }),
    delete: subject.can(actor, "delete", { authorId }),
  };
}

/** The columns a comment's and a ticket's entries share. */
export interface EntryRow {
  id: string;
  createdAt: Date;
  editedAt: Date | null;
  userId: string | null;
  body: string;
  attachments: Attachment[];
  videoStatus: VideoStatus | null;
  videoKey: string | null;
  videoPosterKey: string | null;
  videoDuration: number | null;
}

/**
 * One entry as a thread shows it (SPEC §3), with no one's abilities (the subject's policy fills them in
 * per reader); `base` is the entry's path, under which its video is served.
 */
export function presentEntry(entry: EntryRow, author: CommentAuthor, base: string): CommentEntry {
  return {
    id: entry.id,
    createdAt: entry.createdAt.toISOString(),
    editedAt: entry.editedAt?.toISOString() ?? null,
    userId: entry.userId,
    author,
    comment: entry.body,
    attachments: entry.attachments,
    ...presentEntryVideo(entry, base),
    abilities: { edit: false, delete: false },
  };
}
