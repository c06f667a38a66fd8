import { type Comment, type CommentAuthor, legacyFromTarget, parseGuestIdentity } from "@redline/shared";
import type { CommentEntryRow, CommentRow } from "../../db/schema/index.ts";
import { DELETED_AUTHOR } from "../users/authors.ts";
import { presentEntryVideo } from "../videos/present.ts";

function authorOf(entry: CommentEntryRow, authors: Map<string, CommentAuthor>): CommentAuthor {
  if (entry.userId) return authors.get(entry.userId) ?? DELETED_AUTHOR;
  const guest = parseGuestIdentity(entry.guestIdentity);
  return {
    uid: null,
    displayName: guest?.name ?? "Anonymous",
    photoURL: guest?.avatar ?? null,
    isGuest: true,
  };
}

const NO_ENTRY_ABILITIES = { edit: false, delete: false };
const NO_COMMENT_ABILITIES = { reply: false, attach: false, resolve: false, move: false };

/** An entry's video as a thread shows it (SPEC §3): served by the comments routes once processed. */
const videoOf = (entry: CommentEntryRow) =>
  presentEntryVideo(entry, `/api/comments/${entry.commentId}/entries/${entry.id}`);

/** A comment with its thread: `entries` are this comment's (any order). */
export function presentComment(
  row: CommentRow,
  entries: CommentEntryRow[],
  authors: Map<string, CommentAuthor>,
): Comment {
  const thread = entries.toSorted(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
  );
  const first = thread[0];
  // The fields callers read before the target (SPEC §3 Comment), said by the target (ADR 0045).
  const { querySelector, anchor, dotPosition, pdfPage, objectId } = legacyFromTarget(row.target);
  return {
    id: row.id,
    projectId: row.projectId,
    pageId: row.pageId,
    versionId: row.versionId,
    slideId: row.slideId,
    objectId,
    target: row.target,
    querySelector,
    anchor,
    anchorStatus: row.anchorStatus,
    dotPosition,
    pdfPage,
    deviceSize: row.deviceSize,
    deviceWidth: row.deviceWidth,
    isResolved: row.isResolved,
    resolvedBy: row.resolvedBy,
    copiedFromVersion: row.copiedFromVersion,
    hasVideo: Boolean(first?.videoStatus),
    videoDuration: first?.videoDuration ?? null,
    createdAt: row.createdAt.toISOString(),
    modifiedAt: row.modifiedAt.toISOString(),
    thread: thread.map((entry) => ({
      id: entry.id,
      createdAt: entry.createdAt.toISOString(),
      editedAt: entry.editedAt?.toISOString() ?? null,
      userId: entry.userId,
      author: authorOf(entry, authors),
      comment: entry.body,
      attachments: entry.attachments,
      ...videoOf(entry),
      abilities: NO_ENTRY_ABILITIES,
    })),
    // Filled in for each reader by the comments policy (withCommentAbilities).
    abilities: NO_COMMENT_ABILITIES,
  };
}
