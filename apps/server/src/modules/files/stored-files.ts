/**
 * The one record of stored files (ADR 0022): `stored_files` has a row per file a row holds, naming its
 * holder (kind and id), its metered size and the project whose owner it counts against. The database keeps
 * it (migration 0022: triggers on every holder's table re-read the holder from `stored_file_sources`), so a
 * file is recorded in the transaction that writes its holder, and released in the one that deletes it —
 * a cascade included. Storage metering, the file collector and the delete paths read it here; none of them
 * lists the tables that hold files.
 */
import { type Product, projectTypesOf } from "@redline/shared";
import { and, eq, inArray, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { type HolderKind, storedFiles } from "../../db/schema/index.ts";

/** The files an owner's projects of a product hold, each once however many rows name it: (key, bytes). */
export function heldFilesSql(owner: Placeholder | string, product: Product): SQL {
  const types = sql.join(
    projectTypesOf(product).map((type) => sql`${type}`),
    sql`, `,
  );
  return sql`
    select f.key, max(f.bytes) as bytes
      from stored_files f join projects p on p.id = f.project_id
      where p.owner_id = ${owner} and p.type in (${types}) and f.bytes is not null
      group by f.key`;
}

/** Every storage key some row holds. */
export async function storedKeys(db: Database): Promise<Set<string>> {
  const rows = await db.selectDistinct({ key: storedFiles.key }).from(storedFiles);
  return new Set(rows.map((row) => row.key));
}

/** Which of `keys` some row holds. */
export async function storedKeysAmong(db: Database, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ key: storedFiles.key })
    .from(storedFiles)
    .where(inArray(storedFiles.key, keys));
  return new Set(rows.map((row) => row.key));
}

/**
 * Holders by kind and id (`{ kinds: ["version_snapshot"], ids: [versionId] }`), or every holder of those
 * kinds in a project (`{ kinds, projectId }`).
 */
export type Holders = { kinds: HolderKind[] } & ({ ids: string[] } | { projectId: string });

/**
 * Files a version, page or project holds alone and that go with it at once: a snapshot, a live screenshot
 * and the thumbnails. Content-addressed files (uploads, snapshot assets, attachments) may be taken up again
 * by a write not yet committed, so the collector removes those after its grace period.
 */
export const OWNED_BY_WORK: HolderKind[] = [
  "version_snapshot",
  "version_screenshot",
  "page_thumbnail",
  "project_thumbnail",
];

/**
 * Runs `remove` (the deletion of the holders' rows) in `tx` and returns the files the given holders held
 * that no row holds any more, for `removeReleasedFiles` after commit. The record itself is released by
 * the deletion (the triggers of migration 0022).
 */
export async function releaseFilesOf(
  tx: Database,
  holders: Holders[],
  remove: () => Promise<unknown>,
): Promise<string[]> {
  const held = new Set<string>();
  for (const holder of holders) {
    if ("ids" in holder && holder.ids.length === 0) continue;
    const rows = await tx
      .selectDistinct({ key: storedFiles.key })
      .from(storedFiles)
      .where(
        and(
          inArray(storedFiles.holderKind, holder.kinds),
          "ids" in holder
            ? inArray(storedFiles.holderId, holder.ids)
            : eq(storedFiles.projectId, holder.projectId),
        ),
      );
    for (const row of rows) held.add(row.key);
  }
  await remove();
  const still = await storedKeysAmong(tx, [...held]);
  return [...held].filter((key) => !still.has(key));
}

/**
 * Removes released files from storage (after the deleting transaction committed). A removal that fails
 * is logged and ignored (SPEC §4: failed cleanup on deletion is ignored); the collector may take it later.
 */
export async function removeReleasedFiles(
  ctx: Pick<AppContext, "storage">,
  keys: string[],
  log: FastifyBaseLogger,
): Promise<void> {
  await Promise.all(
    keys.map((key) =>
      ctx.storage
        .delete(key)
        .catch((error: unknown) => log.warn({ err: error, key }, "could not remove a file")),
    ),
  );
}
