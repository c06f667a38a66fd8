import { type Comment, type CommentAuthor, legacyFromTarget, parseGuestIdentity } from "@redline/shared";
import type { CommentEntryRow, CommentRow } from "../../db/schema/index.ts";
import { presentEntry } from "../discussion/discussion.ts";
import { DELETED_AUTHOR } from "../users/authors.ts";

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

const NO_COMMENT_ABILITIES = { reply: false, attach: false, resolve: false, move: false };

/**
 * A comment with its thread: `entries` are this comment's (any order), each presented as every discussion's
 * entry is, its video served by the comments routes once processed.
 */
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
    thread: thread.map((entry) =>
      presentEntry(entry, authorOf(entry, authors), `/api/comments/${entry.commentId}/entries/${entry.id}`),
    ),
    // Filled in for each reader by the comments policy (withCommentAbilities).
    abilities: NO_COMMENT_ABILITIES,
  };
}
