import type { InspectChange } from "@redline/shared";
import type { Database } from "../../db/index.ts";
import type { InspectChangeRow } from "../../db/schema/index.ts";
import { DELETED_AUTHOR, loadAuthors } from "../users/authors.ts";

/** Authors as for comments: someone no longer in the project is 'Deleted User'. */

export async function presentChanges(
  db: Database,
  projectId: string,
  rows: InspectChangeRow[],
): Promise<InspectChange[]> {
  const authors = await loadAuthors(
    db,
    rows.map((row) => row.userId),
    [projectId],
  );
  return rows.map((row) => ({
    id: row.id,
    projectId: row.projectId,
    pageId: row.pageId,
    versionId: row.versionId,
    changeType: row.changeType,
    querySelector: row.querySelector,
    anchor: row.anchor,
    property: row.property,
    value: row.value,
    before: row.before,
    after: row.after,
    imageDimensions: row.imageDimensions,
    deviceSize: row.deviceSize,
    count: row.count,
    isHidden: row.isHidden,
    isResolved: row.isResolved,
    resolvedBy: row.resolvedBy,
    userId: row.userId,
    author: (row.userId && authors.get(row.userId)) || DELETED_AUTHOR,
    createdAt: row.createdAt.toISOString(),
    groupCreatedAt: row.groupCreatedAt.toISOString(),
    modifiedAt: row.modifiedAt.toISOString(),
    // Filled in for each reader by the changes policy (withInspectAbilities).
    abilities: { resolve: false, hide: false, delete: false },
  }));
}
