/**
 * Storage per project owner and product (SPEC §9). What an owner's files use is never kept as a counter:
 * it is summed, when asked, over the record of stored files (files/stored-files.ts, ADR 0022) of the
 * owner's projects of that product — uploaded page files, comment attachments, inspect-change images,
 * ticket screenshots, replays and thread attachments, message attachments in the project's conversations
 * — each stored file once, however many rows name it. The record changes with its holders' rows, in their
 * transaction, so the sum cannot drift: deleting a version, page, project, comment or edit (by a route or
 * a cascade), transferring a project and a crash all change it by themselves.
 *
 * A write that records files measures under a lock on the owner's row before and after it writes, in its
 * own transaction, and is refused (402, rolled back) when it grew usage past the limit; so two uploads
 * at once cannot pass the limit together. Upload routes also check before storing anything
 * (`assertRoomToStore`), as the page limit does.
 */
import {
  canStore,
  type Product,
  productOf,
  storageLimitBytes,
  storageLimitMessage,
  UNLIMITED,
} from "@redline/shared";
import { eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { type ProjectRow, projects, users, versions } from "../../db/schema/index.ts";
import { PlanLimitError } from "../../lib/errors.ts";
import { heldFilesSql } from "../files/stored-files.ts";
import { entitlementsFor } from "./plans.ts";

export class StorageLimitError extends PlanLimitError {
  constructor(limit: number, product: Product) {
    super("storage", storageLimitMessage(limit), { kind: "storage", product, limit });
  }
}

/** A file about to be stored: its storage key and size. */
export interface FileToStore {
  key: string;
  bytes: number;
}

/** The bytes an owner's projects of a product hold, as one SQL value (for a prepared statement too). */
export function usedBytesSql(owner: Placeholder | string, product: Product): SQL<number> {
  return sql<number>`(select coalesce(sum(bytes), 0)::float8 from (${heldFilesSql(owner, product)}) as held)`;
}

/** What the owner's projects hold now, and what they would hold with `adding` stored too. */
async function measure(db: Database, ownerId: string, product: Product, adding: FileToStore[] = []) {
  const result = (await db.execute(sql`
    with held as (${heldFilesSql(ownerId, product)}),
      adding as (
        select f->>'key' as key, max((f->>'bytes')::bigint) as bytes
          from jsonb_array_elements(${JSON.stringify(adding)}::jsonb) as f group by f->>'key'
      )
    select (select coalesce(sum(bytes), 0) from held)::float8 as used,
      (select coalesce(sum(bytes), 0) from adding
        where not exists (select 1 from held where held.key = adding.key))::float8 as added
  `)) as unknown as { rows: { used: number | string; added: number | string }[] };
  const row = result.rows[0];
  const used = Number(row?.used ?? 0);
  return { used, after: used + Number(row?.added ?? 0) };
}

/** The owner's storage limit in a product, in bytes (-1 unlimited, and always with plans off). */
function storageLimitOf(
  owner: typeof users.$inferSelect | undefined,
  product: Product,
  plansEnabled: boolean,
) {
  if (!plansEnabled || !owner) return UNLIMITED;
  return storageLimitBytes(entitlementsFor(owner, product));
}

/**
 * Refuses (402) before a file is stored when it cannot fit in the project owner's storage. Not under a
 * lock: the transaction that records the file checks again (`meterStorage`), so concurrent uploads cannot
 * both pass; what the loser had stored is left to the file collector.
 */
export async function assertRoomToStore(
  db: Database,
  project: Pick<ProjectRow, "ownerId" | "type">,
  file: FileToStore,
  plansEnabled: boolean,
): Promise<void> {
  if (!plansEnabled) return;
  const [owner] = await db.select().from(users).where(eq(users.id, project.ownerId));
  const product = productOf(project.type);
  const limit = storageLimitOf(owner, product, plansEnabled);
  if (limit === UNLIMITED) return;
  const { used, after } = await measure(db, project.ownerId, product, [file]);
  if (!canStore(limit, used, after)) throw new StorageLimitError(limit, product);
}

export interface StorageMeter {
  /** Call after the writes, in the same transaction: refuses (402) when they grew usage past the limit. */
  check(): Promise<void>;
}

const UNMETERED: StorageMeter = { check: async () => undefined };

/**
 * Inside the transaction that records files in a project, before it writes them: locks the owner's row
 * (so writes that add files to one owner's projects happen one after another) and measures. With plans
 * off, or an unlimited plan, it does nothing.
 */
export async function meterStorage(
  tx: Database,
  projectId: string,
  plansEnabled: boolean,
): Promise<StorageMeter> {
  if (!plansEnabled) return UNMETERED;
  // A key-share lock keeps the owner from changing (a transfer locks the project row) until commit.
  const [project] = await tx
    .select({ ownerId: projects.ownerId, type: projects.type })
    .from(projects)
    .where(eq(projects.id, projectId))
    .for("key share");
  if (!project) return UNMETERED;
  const [owner] = await tx.select().from(users).where(eq(users.id, project.ownerId)).for("no key update");
  const product = productOf(project.type);
  const limit = storageLimitOf(owner, product, plansEnabled);
  if (limit === UNLIMITED) return UNMETERED;
  const { used } = await measure(tx, project.ownerId, product);
  return {
    async check() {
      const { used: after } = await measure(tx, project.ownerId, product);
      if (!canStore(limit, used, after)) throw new StorageLimitError(limit, product);
    },
  };
}

/**
 * Versions uploaded before their sizes were recorded (migration 0010) are measured once from the file
 * store, so they count like every later upload. A missing file counts 0.
 */
export async function measureUnsizedUploads(ctx: Pick<AppContext, "database" | "storage">): Promise<number> {
  const { db } = ctx.database;
  let measured = 0;
  for (;;) {
    const batch = await db
      .select({ id: versions.id, key: versions.fileKey })
      .from(versions)
      .where(sql`${versions.fileKey} is not null and ${versions.fileBytes} is null`)
      .limit(100);
    if (batch.length === 0) return measured;
    for (const { id, key } of batch) {
      const bytes = (await ctx.storage.size(key!)) ?? 0;
      await db
        .update(versions)
        .set({ fileBytes: bytes })
        .where(sql`${versions.id} = ${id} and ${versions.fileBytes} is null`);
      measured++;
    }
  }
}
