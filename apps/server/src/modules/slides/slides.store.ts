/**
 * The deck as stored (ADR 0040): a snapshot and the updates since, read in one statement (so a
 * compaction between two reads cannot hide an update), merged into one Yjs document or one update.
 */
import { type Deck, deckSchema, SLIDE_MESSAGES } from "@redline/shared";
import { sql } from "drizzle-orm";
import * as Y from "yjs";
import type { Database } from "../../db/index.ts";
import { BadRequestError } from "../../lib/errors.ts";

type Executor = Pick<Database, "execute">;

/** Updates kept beside the snapshot before a write folds them into it. */
export const COMPACT_AFTER = 200;

export interface StoredDeck {
  updates: Uint8Array[];
  /** The newest update id folded in (the snapshot's, or the newest row read). */
  lastId: number;
  /** Rows after the snapshot. */
  pending: number;
}

const decode = (text: string) => new Uint8Array(Buffer.from(text, "base64"));
export const encode = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/** The snapshot and every update after it, in one statement. */
export async function readStoredDeck(tx: Executor, projectId: string): Promise<StoredDeck> {
  const result = (await tx.execute(sql`
    select d.snapshot, d.through_id,
      coalesce((select json_agg(json_build_array(u.id, u.update) order by u.id) from deck_updates u
        where u.project_id = d.project_id and u.id > d.through_id), '[]'::json) as updates
    from decks d where d.project_id = ${projectId}
  `)) as unknown as {
    rows: { snapshot: string; through_id: string | number; updates: [number, string][] }[];
  };
  const row = result.rows[0];
  if (!row) return { updates: [], lastId: 0, pending: 0 };
  const rows =
    typeof row.updates === "string" ? (JSON.parse(row.updates) as [number, string][]) : row.updates;
  const updates = [
    ...(row.snapshot ? [decode(row.snapshot)] : []),
    ...rows.map(([, update]) => decode(update)),
  ];
  return { updates, lastId: Number(rows.at(-1)?.[0] ?? row.through_id), pending: rows.length };
}

/** The stored deck as one Yjs update (an empty document's when nothing was ever written). */
export function mergedUpdate(stored: StoredDeck): Uint8Array {
  if (stored.updates.length === 0) return Y.encodeStateAsUpdate(new Y.Doc());
  return stored.updates.length === 1 ? (stored.updates[0] as Uint8Array) : Y.mergeUpdates(stored.updates);
}

/**
 * The document of each deck this process wrote lately, and the newest update it holds: a write under the
 * deck's lock reads only the rows after it (writes are one at a time per deck, so ids are in commit order).
 * An entry is dropped whenever a write fails after touching it.
 */
const recent = new Map<string, { doc: Y.Doc; lastId: number }>();
const RECENT_DECKS = 50;

/**
 * Under the deck row's lock: the deck as a document (this process's copy brought up to date when it has
 * one), and how many rows wait beside the snapshot. The caller must `forgetDeck` when it fails.
 */
export async function lockedDeckDoc(
  tx: Executor,
  projectId: string,
): Promise<{ doc: Y.Doc; pending: number; remember(lastId: number): void }> {
  const cached = recent.get(projectId);
  const result = (await tx.execute(sql`
    select d.snapshot, d.through_id,
      (select count(*) from deck_updates u where u.project_id = d.project_id and u.id > d.through_id)::int as pending,
      coalesce((select json_agg(json_build_array(u.id, u.update) order by u.id) from deck_updates u
        where u.project_id = d.project_id and u.id > greatest(d.through_id, ${cached?.lastId ?? 0})), '[]'::json) as updates
    from decks d where d.project_id = ${projectId}
  `)) as unknown as {
    rows: {
      snapshot: string;
      through_id: string | number;
      pending: number;
      updates: [number, string][] | string;
    }[];
  };
  const row = result.rows[0];
  const rows = !row
    ? []
    : typeof row.updates === "string"
      ? (JSON.parse(row.updates) as [number, string][])
      : row.updates;
  const throughId = Number(row?.through_id ?? 0);
  let doc: Y.Doc;
  if (cached && cached.lastId >= throughId) {
    doc = cached.doc;
  } else {
    doc = new Y.Doc({ gc: true });
    if (row?.snapshot) Y.applyUpdate(doc, decode(row.snapshot));
  }
  for (const [, update] of rows) Y.applyUpdate(doc, decode(update));
  recent.delete(projectId);
  return {
    doc,
    pending: Number(row?.pending ?? 0),
    remember(lastId) {
      recent.set(projectId, { doc, lastId });
      if (recent.size > RECENT_DECKS) recent.delete(recent.keys().next().value as string);
    },
  };
}

/**
 * Applies an editor's update to a copy of the deck and checks the result: a valid Yjs update, nothing
 * outside the `slides` map, nothing it depends on missing, and a deck the schema accepts whose images are
 * this project's own. Throws 400 (the stored deck untouched) otherwise; returns the document with it.
 */
export function applyChecked(doc: Y.Doc, update: Uint8Array, projectId: string): Y.Doc {
  try {
    Y.applyUpdate(doc, update);
  } catch {
    throw new BadRequestError(SLIDE_MESSAGES.malformed, "malformed-deck");
  }
  if (doc.store.pendingStructs || doc.store.pendingDs)
    throw new BadRequestError(
      "The slide change depends on changes the server does not have: reload the editor.",
      "deck-gap",
    );
  if ([...doc.share.keys()].some((name) => name !== "slides"))
    throw new BadRequestError(SLIDE_MESSAGES.malformed, "malformed-deck");
  const parsed = deckSchema.safeParse(doc.getMap("slides").toJSON());
  if (!parsed.success) throw new BadRequestError(SLIDE_MESSAGES.malformed, "malformed-deck");
  const ownImages = `/files/slides/${projectId}/`;
  for (const slide of Object.values(parsed.data))
    for (const object of Object.values(slide.objects))
      if (object.kind === "image" && !object.src.startsWith(ownImages))
        throw new BadRequestError(SLIDE_MESSAGES.malformed, "malformed-deck");
  return doc;
}

export function decodeUpdate(text: string): Uint8Array {
  const bytes = decode(text);
  if (bytes.length === 0) throw new BadRequestError(SLIDE_MESSAGES.malformed, "malformed-deck");
  return bytes;
}

/** The stored deck as JSON, slides by id (what `doc.getMap("slides").toJSON()` gives an editor). */
export async function readDeckJson(db: Executor, projectId: string): Promise<Deck> {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, mergedUpdate(await readStoredDeck(db, projectId)));
  return doc.getMap("slides").toJSON() as Deck;
}
