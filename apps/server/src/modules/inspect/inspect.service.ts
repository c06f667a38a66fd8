/**
 * Inspect change writes. Each runs in one transaction that first locks the version's row (FOR NO KEY
 * UPDATE: comments may still be added meanwhile), so saves, hides and deletes of one version happen one
 * after another: merging reads the current changes and writes the result without losing a concurrent
 * save. The unique merge key (`inspect_changes_key`) guarantees one row per element × property × device
 * size whatever happens. Each records its one domain event inside the transaction (inspect.events.ts).
 */
import {
  deviceSizeOf,
  type InspectChange,
  type InspectChangeInput,
  type MergeableChange,
  mergeChanges,
  propertyOf,
  type RichText,
} from "@redline/shared";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import {
  type InspectChangeRow,
  inspectChanges,
  type NewInspectChangeRow,
  type VersionRow,
  versions,
} from "../../db/schema/index.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { meterStorage } from "../plans/storage.ts";
import { recordInspectEvent } from "./inspect.events.ts";
import { presentChanges } from "./inspect.presenter.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** A change as merging sees it: the row's editable fields. */
interface Draft extends MergeableChange {
  anchor: InspectChangeRow["anchor"];
  after: RichText | null;
  imageDimensions: { width: number; height: number } | null;
  userId: string | null;
  isHidden: boolean;
  isResolved: boolean;
  resolvedBy: string | null;
}

export async function listChanges(db: Database, version: VersionRow): Promise<InspectChange[]> {
  const rows = await db
    .select()
    .from(inspectChanges)
    .where(eq(inspectChanges.versionId, version.id))
    .orderBy(
      asc(inspectChanges.createdAt),
      asc(inspectChanges.querySelector),
      asc(inspectChanges.property),
      asc(inspectChanges.deviceSize),
    );
  return presentChanges(db, version.projectId, rows);
}

async function lockVersion(tx: Tx, versionId: string) {
  const [locked] = await tx
    .select({ id: versions.id })
    .from(versions)
    .where(eq(versions.id, versionId))
    .for("no key update");
  if (!locked) throw new NotFoundError("Version not found.", "version-not-found");
}

function recordUpdated(tx: Tx, version: Pick<VersionRow, "projectId" | "id">) {
  return recordInspectEvent(tx, {
    type: "inspect.updated",
    projectId: version.projectId,
    versionId: version.id,
  });
}

function draftOf(input: InspectChangeInput, userId: string): Draft {
  return {
    changeType: input.changeType,
    querySelector: input.anchor.querySelector,
    anchor: input.anchor,
    property: propertyOf(input),
    deviceSize: deviceSizeOf(input.deviceWidth),
    value: input.changeType === "text" ? null : input.value,
    before: input.changeType === "text" ? input.before : null,
    after: input.changeType === "text" ? input.after : null,
    imageDimensions: (input.changeType === "image" && input.imageDimensions) || null,
    count: 1,
    userId,
    isHidden: false,
    isResolved: false,
    resolvedBy: null,
  };
}

const fields = (draft: Draft) => ({
  changeType: draft.changeType,
  querySelector: draft.querySelector,
  anchor: draft.anchor,
  property: draft.property,
  deviceSize: draft.deviceSize,
  value: draft.value,
  before: draft.before ?? null,
  after: draft.after,
  imageDimensions: draft.imageDimensions,
  count: draft.count,
  userId: draft.userId,
  isHidden: draft.isHidden,
  isResolved: draft.isResolved,
  resolvedBy: draft.resolvedBy,
});

/**
 * One save of the edit panel: merges the changes, in the order they were made, into the version's.
 * Replacement images count against the project owner's storage from the change that holds them.
 */
export async function saveChanges(
  db: Database,
  version: VersionRow,
  userId: string,
  inputs: InspectChangeInput[],
  plansEnabled: boolean,
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockVersion(tx, version.id);
    const storage = inputs.some((input) => input.changeType === "image")
      ? await meterStorage(tx, version.projectId, plansEnabled)
      : null;
    const drafts = inputs.map((input) => draftOf(input, userId));
    const selectors = [...new Set(drafts.map((draft) => draft.querySelector))];
    const rows = await tx
      .select()
      .from(inspectChanges)
      .where(and(eq(inspectChanges.versionId, version.id), inArray(inspectChanges.querySelector, selectors)))
      .orderBy(asc(inspectChanges.createdAt), asc(inspectChanges.id));
    const existing: Draft[] = rows;
    const merged = mergeChanges(existing, drafts);

    const kept = new Set(merged.map((change) => change.id));
    const removed = rows.filter((row) => !kept.has(row.id)).map((row) => row.id);
    if (removed.length > 0) await tx.delete(inspectChanges).where(inArray(inspectChanges.id, removed));

    const now = new Date();
    const untouched = new Set(existing);
    const inserts: NewInspectChangeRow[] = [];
    for (const change of merged) {
      if (untouched.has(change)) continue;
      const values = { ...fields(change), groupCreatedAt: now, modifiedAt: now };
      if (change.id) await tx.update(inspectChanges).set(values).where(eq(inspectChanges.id, change.id));
      else
        inserts.push({
          ...values,
          id: newId(),
          projectId: version.projectId,
          pageId: version.pageId,
          versionId: version.id,
          createdAt: now,
        });
    }
    if (inserts.length > 0) await tx.insert(inspectChanges).values(inserts);
    await storage?.check();
    await recordInspectEvent(tx, {
      type: "inspect.saved",
      actor: { userId },
      version: { id: version.id, projectId: version.projectId, pageId: version.pageId },
      editsCount: inputs.length,
    });
  });
}

/** The eye and resolve: resolving records who resolved it (SPEC §4 resolvedBy). */
export async function updateChange(
  db: Database,
  change: InspectChangeRow,
  userId: string,
  input: { isHidden?: boolean | undefined; isResolved?: boolean | undefined },
): Promise<InspectChange> {
  const [row] = await db.transaction(async (tx) => {
    await lockVersion(tx, change.versionId);
    const updated = await tx
      .update(inspectChanges)
      .set({
        ...(input.isHidden !== undefined && { isHidden: input.isHidden }),
        ...(input.isResolved !== undefined && {
          isResolved: input.isResolved,
          resolvedBy: input.isResolved ? userId : null,
        }),
        modifiedAt: new Date(),
      })
      .where(eq(inspectChanges.id, change.id))
      .returning();
    await recordUpdated(tx, { projectId: change.projectId, id: change.versionId });
    return updated;
  });
  if (!row) throw new NotFoundError("Suggestion not found.", "change-not-found");
  return (await presentChanges(db, row.projectId, [row]))[0]!;
}

/** Deletes the given changes of a version (ids of other versions are ignored); returns how many went. */
export async function deleteChanges(db: Database, version: VersionRow, ids: string[]): Promise<number> {
  return db.transaction(async (tx) => {
    await lockVersion(tx, version.id);
    const deleted = await tx
      .delete(inspectChanges)
      .where(and(eq(inspectChanges.versionId, version.id), inArray(inspectChanges.id, ids)))
      .returning({ id: inspectChanges.id });
    if (deleted.length > 0) await recordUpdated(tx, version);
    return deleted.length;
  });
}
