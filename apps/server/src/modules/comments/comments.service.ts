/**
 * Comment operations, shared by the members' routes and the public link's guest routes. Each write runs
 * in one transaction and records its one domain event inside it (comments.events.ts says who hears of it).
 */
import {
  type Comment,
  type CommentAuthor,
  type createCommentSchema,
  deviceSizeOf,
  type replySchema,
  type Target,
  targetContentOf,
  targetMismatch,
  targetSchema,
} from "@redline/shared";
import { and, asc, desc, eq, exists, getTableColumns, inArray, isNotNull, lt, or, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "../../db/index.ts";
import { prepared } from "../../db/prepared.ts";
import {
  type CommentEntryRow,
  type CommentRow,
  commentEntries,
  comments,
  projectMembers,
  projects,
  users,
  type VersionRow,
  versions,
} from "../../db/schema/index.ts";
import { together } from "../../db/together.ts";
import { newId } from "../../lib/ids.ts";
import { writeEntry } from "../discussion/discussion.write.ts";
import { authorsFrom, loadAuthors } from "../users/authors.ts";
import { type CommentActor, commentRef, recordCommentEvent } from "./comments.events.ts";
import { presentComment } from "./comments.presenter.ts";

export type Author = CommentActor;

import type { Tx } from "../videos/processing.ts";

/** What a new entry carries beyond its text: its video's columns, and a step in its transaction (the job). */
export interface EntryExtras {
  columns?: Partial<typeof commentEntries.$inferInsert>;
  inTransaction?: (tx: Tx, entryId: string) => Promise<void>;
}

/**
 * A version's comments as the list shows them: three prepared queries scoped by the version (comments,
 * their entries, and the entries' authors who are still among the project's people), run together —
 * a version holding hundreds of comments costs no query building and no per-id parameters.
 */
export async function listComments(db: Database, versionId: string): Promise<Comment[]> {
  const [rows, entries, authorRows] = await together(db, [
    () =>
      prepared(db, "version_comments", () =>
        db
          .select()
          .from(comments)
          .where(eq(comments.versionId, sql.placeholder("versionId")))
          .orderBy(asc(comments.createdAt))
          .prepare("version_comments"),
      ).execute({ versionId }),
    () =>
      prepared(db, "version_comment_entries", () =>
        db
          .select(getTableColumns(commentEntries))
          .from(commentEntries)
          .innerJoin(comments, eq(comments.id, commentEntries.commentId))
          .where(eq(comments.versionId, sql.placeholder("versionId")))
          .prepare("version_comment_entries"),
      ).execute({ versionId }),
    () =>
      prepared(db, "version_comment_authors", () =>
        db
          .select({ id: users.id, displayName: users.displayName, photoURL: users.photoURL })
          .from(users)
          .where(
            and(
              inArray(
                users.id,
                db
                  .selectDistinct({ id: commentEntries.userId })
                  .from(commentEntries)
                  .innerJoin(comments, eq(comments.id, commentEntries.commentId))
                  .where(eq(comments.versionId, sql.placeholder("versionId"))),
              ),
              // Still among the project's people (SPEC §6: otherwise 'Deleted User').
              or(
                exists(
                  db
                    .select({ one: sql`1` })
                    .from(versions)
                    .innerJoin(projects, eq(projects.id, versions.projectId))
                    .where(
                      and(eq(versions.id, sql.placeholder("versionId")), eq(projects.ownerId, users.id)),
                    ),
                ),
                exists(
                  db
                    .select({ one: sql`1` })
                    .from(versions)
                    .innerJoin(projectMembers, eq(projectMembers.projectId, versions.projectId))
                    .where(
                      and(eq(versions.id, sql.placeholder("versionId")), eq(projectMembers.userId, users.id)),
                    ),
                ),
              ),
            ),
          )
          .prepare("version_comment_authors"),
      ).execute({ versionId }),
  ]);
  return presentRows(rows, entries, authorsFrom(authorRows));
}

export async function presentMany(db: Database, rows: CommentRow[]): Promise<Comment[]> {
  if (rows.length === 0) return [];
  const entries = await db
    .select()
    .from(commentEntries)
    .where(
      inArray(
        commentEntries.commentId,
        rows.map((row) => row.id),
      ),
    );
  const authors = await loadAuthors(
    db,
    entries.map((entry) => entry.userId),
    [...new Set(rows.map((row) => row.projectId))],
  );
  return presentRows(rows, entries, authors);
}

/** Comments with their threads; a comment whose thread is empty is not shown. */
function presentRows(
  rows: CommentRow[],
  entries: CommentEntryRow[],
  authors: Map<string, CommentAuthor>,
): Comment[] {
  const threads = new Map<string, CommentEntryRow[]>();
  for (const entry of entries) {
    const thread = threads.get(entry.commentId);
    if (thread) thread.push(entry);
    else threads.set(entry.commentId, [entry]);
  }
  const presented: Comment[] = [];
  for (const row of rows) {
    const thread = threads.get(row.id);
    if (thread) presented.push(presentComment(row, thread, authors));
  }
  return presented;
}

export async function presentOne(db: Database, commentId: string): Promise<Comment | null> {
  const [row] = await db.select().from(comments).where(eq(comments.id, commentId));
  return row ? ((await presentMany(db, [row]))[0] ?? null) : null;
}

/** Where a new comment goes: a page's version, or a slide of an illustration project. */
export type CommentPlace =
  | Pick<VersionRow, "id" | "projectId" | "pageId">
  | { projectId: string; slideId: string };

/** A new comment: its text, files and device, and its target checked for its place (comments.targets.ts). */
export type NewComment = Omit<
  z.infer<typeof createCommentSchema>,
  "target" | "anchor" | "dotPosition" | "pdfPage"
> & { target: Target };

export async function createComment(
  db: Database,
  place: CommentPlace,
  author: Author,
  input: NewComment,
  plansEnabled: boolean,
  extras: EntryExtras = {},
): Promise<Comment> {
  const commentId = newId();
  const entryId = newId();
  const onSlide = "slideId" in place;
  const ref = {
    id: commentId,
    projectId: place.projectId,
    pageId: onSlide ? null : place.pageId,
    versionId: onSlide ? null : place.id,
    ...(onSlide && { slideId: place.slideId }),
  };
  // Attachments count against the project owner's storage from the entry that holds them.
  const where = { projectId: place.projectId, plansEnabled, carriesFiles: input.attachments.length > 0 };
  const insert = async (tx: Tx) => {
    const now = new Date();
    await tx.insert(comments).values({
      id: commentId,
      projectId: place.projectId,
      pageId: ref.pageId,
      versionId: ref.versionId,
      slideId: onSlide ? place.slideId : null,
      target: input.target,
      anchorStatus: input.target.kind === "element" && input.target.anchor ? "exact" : null,
      deviceSize: deviceSizeOf(input.deviceWidth),
      deviceWidth: input.deviceWidth,
      createdAt: now,
      modifiedAt: now,
    });
    await tx.insert(commentEntries).values({
      id: entryId,
      commentId,
      userId: author.userId ?? null,
      guestIdentity: author.guestIdentity ?? null,
      body: input.comment,
      attachments: input.attachments,
      createdAt: now,
      ...extras.columns,
    });
  };
  await writeEntry(db, where, insert, async (tx) => {
    await extras.inTransaction?.(tx, entryId);
    // The event carries the comment, so no reviewer (nor the author's own tab) refetches the list.
    await recordCommentEvent(tx, {
      type: "comment.created",
      actor: author,
      ref,
      text: input.comment,
      comment: (await presentOne(tx, commentId)) ?? undefined,
    });
  });
  return (await presentOne(db, commentId))!;
}

export async function addReply(
  db: Database,
  comment: CommentRow,
  author: Author,
  input: z.infer<typeof replySchema>,
  plansEnabled: boolean,
  extras: EntryExtras = {},
): Promise<Comment> {
  const entryId = newId();
  const where = { projectId: comment.projectId, plansEnabled, carriesFiles: input.attachments.length > 0 };
  const insert = (tx: Tx) =>
    tx.insert(commentEntries).values({
      id: entryId,
      commentId: comment.id,
      userId: author.userId ?? null,
      guestIdentity: author.guestIdentity ?? null,
      body: input.comment,
      attachments: input.attachments,
      ...extras.columns,
    });
  await writeEntry(db, where, insert, async (tx) => {
    await extras.inTransaction?.(tx, entryId);
    await tx.update(comments).set({ modifiedAt: new Date() }).where(eq(comments.id, comment.id));
    await recordCommentEvent(tx, {
      type: "comment.replied",
      actor: author,
      ref: commentRef(comment),
      text: input.comment,
      comment: (await presentOne(tx, comment.id)) ?? undefined,
    });
  });
  return (await presentOne(db, comment.id))!;
}

/**
 * Deleting a reply removes it; deleting the first or only entry removes the whole comment (SPEC §4).
 * Returns whether the comment itself is gone.
 */
export async function deleteEntry(
  db: Database,
  comment: CommentRow,
  entry: CommentEntryRow,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [first] = await tx
      .select({ id: commentEntries.id })
      .from(commentEntries)
      .where(eq(commentEntries.commentId, comment.id))
      .orderBy(asc(commentEntries.createdAt), asc(commentEntries.id))
      .limit(1);
    const removesComment = first?.id === entry.id;
    if (removesComment) await tx.delete(comments).where(eq(comments.id, comment.id));
    else await tx.delete(commentEntries).where(eq(commentEntries.id, entry.id));
    const ref = commentRef(comment);
    await recordCommentEvent(
      tx,
      removesComment
        ? { type: "comment.deleted", ref }
        : { type: "comment.edited", ref, comment: (await presentOne(tx, comment.id)) ?? undefined },
    );
    return removesComment;
  });
}

/**
 * The comments of slides deleted from a deck go with them (as a deleted version's go with it; SPEC §3 keeps
 * a slide's comments in the slide), each deletion told to the project's room. Called in the transaction
 * that stores the deck's update. Returns how many went.
 */
export async function deleteSlideComments(
  tx: Database,
  projectId: string,
  slideIds: readonly string[],
): Promise<number> {
  if (slideIds.length === 0) return 0;
  const gone = await tx
    .delete(comments)
    .where(and(eq(comments.projectId, projectId), inArray(comments.slideId, [...slideIds])))
    .returning();
  for (const comment of gone)
    await recordCommentEvent(tx, { type: "comment.deleted", ref: commentRef(comment) });
  return gone.length;
}

/** An illustration project's slide comments, oldest first, with their threads. */
export async function listSlideComments(db: Database, projectId: string): Promise<Comment[]> {
  const rows = await db
    .select()
    .from(comments)
    .where(and(eq(comments.projectId, projectId), isNotNull(comments.slideId)))
    .orderBy(asc(comments.createdAt), asc(comments.id));
  return presentMany(db, rows);
}

/** The version before this one on the same page, if any. */
export async function previousVersion(db: Database, version: VersionRow): Promise<VersionRow | null> {
  const [previous] = await db
    .select()
    .from(versions)
    .where(and(eq(versions.pageId, version.pageId), lt(versions.number, version.number)))
    .orderBy(desc(versions.number))
    .limit(1);
  return previous ?? null;
}

/**
 * Copies the previous version's unresolved comments that are not already here, in creation order, with
 * their threads, marked copiedFromVersion. Their anchors travel as they were: the viewer re-anchors
 * them against the new document and records the outcome (exact, fuzzy, needs review, orphaned).
 */
export async function copyUnresolved(db: Database, from: VersionRow, to: VersionRow): Promise<number> {
  return db.transaction(async (tx) => {
    const source = await tx
      .select()
      .from(comments)
      .where(and(eq(comments.versionId, from.id), eq(comments.isResolved, false)))
      .orderBy(asc(comments.createdAt), asc(comments.id));
    const present = new Set(
      (
        await tx
          .select({ from: comments.copiedFromComment })
          .from(comments)
          .where(eq(comments.versionId, to.id))
      ).map((row) => row.from),
    );
    // A comment whose target does not fit the new version's content (a page's version of another kind)
    // stays behind: its pin would point at nothing there.
    const content = targetContentOf(to.kind);
    const toCopy = source.filter(
      (comment) =>
        !present.has(comment.id) &&
        targetSchema.safeParse(comment.target).success &&
        targetMismatch(comment.target, content) === null,
    );
    if (toCopy.length === 0) return 0;
    const entries = await tx
      .select()
      .from(commentEntries)
      .where(
        inArray(
          commentEntries.commentId,
          toCopy.map((comment) => comment.id),
        ),
      );
    const copied: string[] = [];
    for (const comment of toCopy) {
      const id = newId();
      copied.push(id);
      await tx.insert(comments).values({
        ...comment,
        id,
        versionId: to.id,
        anchorStatus: null,
        copiedFromVersion: from.id,
        copiedFromComment: comment.id,
      });
      const thread = entries.filter((entry) => entry.commentId === comment.id);
      if (thread.length > 0)
        await tx
          .insert(commentEntries)
          .values(thread.map((entry) => ({ ...entry, id: newId(), commentId: id })));
    }
    await recordCommentEvent(tx, {
      type: "comment.copied",
      projectId: to.projectId,
      versionId: to.id,
      commentIds: copied,
    });
    return toCopy.length;
  });
}
