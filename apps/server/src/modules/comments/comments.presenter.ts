import { type Comment, type CommentAuthor, DELETED_USER_NAME, parseGuestIdentity } from "@redline/shared";
import { and, inArray, or } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import {
  type CommentEntryRow,
  type CommentRow,
  projectMembers,
  projects,
  users,
} from "../../db/schema/index.ts";

/**
 * Authors of the given entries: users by id, guests by their identity. A user whose account is gone, or
 * who is no longer among the project's people, shows as 'Deleted User' (SPEC §6). One query: it is also
 * read inside write transactions, whose single connection must not be sent queries side by side.
 */
export async function loadAuthors(
  db: Database,
  userIds: readonly (string | null)[],
  projectIds: string[],
): Promise<Map<string, CommentAuthor>> {
  const ids = [...new Set(userIds.filter((id): id is string => Boolean(id)))];
  if (ids.length === 0 || projectIds.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, displayName: users.displayName, photoURL: users.photoURL })
    .from(users)
    .where(
      and(
        inArray(users.id, ids),
        or(
          inArray(
            users.id,
            db.select({ id: projects.ownerId }).from(projects).where(inArray(projects.id, projectIds)),
          ),
          inArray(
            users.id,
            db
              .select({ id: projectMembers.userId })
              .from(projectMembers)
              .where(inArray(projectMembers.projectId, projectIds)),
          ),
        ),
      ),
    );
  return authorsFrom(rows);
}

/** Authors by id, from users already known to be among the project's people. */
export function authorsFrom(
  rows: { id: string; displayName: string; photoURL: string | null }[],
): Map<string, CommentAuthor> {
  const authors = new Map<string, CommentAuthor>();
  for (const row of rows)
    authors.set(row.id, {
      uid: row.id,
      displayName: row.displayName,
      photoURL: row.photoURL,
      isGuest: false,
    });
  return authors;
}

/** An author whose account is gone or who left the project (SPEC §6). */
export const DELETED_AUTHOR: CommentAuthor = {
  uid: null,
  displayName: DELETED_USER_NAME,
  photoURL: null,
  isGuest: false,
};

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

/** A comment with its thread: `entries` are this comment's (any order). */
export function presentComment(
  row: CommentRow,
  entries: CommentEntryRow[],
  authors: Map<string, CommentAuthor>,
): Comment {
  return {
    id: row.id,
    projectId: row.projectId,
    pageId: row.pageId,
    versionId: row.versionId,
    querySelector: row.querySelector,
    anchor: row.anchor,
    anchorStatus: row.anchorStatus,
    dotPosition: row.dotPosition,
    pdfPage: row.pdfPage,
    deviceSize: row.deviceSize,
    deviceWidth: row.deviceWidth,
    isResolved: row.isResolved,
    resolvedBy: row.resolvedBy,
    copiedFromVersion: row.copiedFromVersion,
    createdAt: row.createdAt.toISOString(),
    modifiedAt: row.modifiedAt.toISOString(),
    thread: entries
      .toSorted((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
      .map((entry) => ({
        id: entry.id,
        createdAt: entry.createdAt.toISOString(),
        editedAt: entry.editedAt?.toISOString() ?? null,
        userId: entry.userId,
        author: authorOf(entry, authors),
        comment: entry.body,
        attachments: entry.attachments,
        abilities: NO_ENTRY_ABILITIES,
      })),
    // Filled in for each reader by the comments policy (withCommentAbilities).
    abilities: NO_COMMENT_ABILITIES,
  };
}
