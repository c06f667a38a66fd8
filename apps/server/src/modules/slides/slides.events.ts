/**
 * The deck's domain events (issue #32): an accepted update reaches the project's room, so every open
 * editor — in this process or another — applies it (Yjs updates commute: order does not matter).
 */
import { and, eq, inArray, lt } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { removedSlides } from "../../db/schema/index.ts";
import type { LedgerEvent } from "../../lib/ledger.ts";
import { fanOut, recordEvent } from "../../lib/realtime.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type SlidesEvent = {
  type: "deck.updated";
  actor: { userId: string };
  projectId: string;
  /** The Yjs update, base64. */
  update: string;
  /** The editor tab that sent it (it has the update already). */
  clientId: number | null;
};

/**
 * What another module does, inside a deck update's transaction, with what hangs on slides (ADR 0044): the
 * comments module hides the comments of slides an update removed, shows them again when an update brings
 * the slide back (an editor's undo sets the same id again), and deletes them a day after the removal
 * (comments.slides.ts registers them), so this module needs not know of comments (modules/imports.test.ts:
 * no two modules import each other).
 */
type SlidesHook = (tx: Database, projectId: string, slideIds: readonly string[]) => Promise<unknown>;
export interface SlidesHooks {
  /** Slides the update removed: what hangs on them goes out of sight. */
  removed: SlidesHook;
  /** Removed slides the update brought back: what hangs on them is shown again. */
  restored: SlidesHook;
  /** Slides removed past `REMOVED_SLIDES_KEPT_MS` and not back: what hangs on them goes for good. */
  purged: SlidesHook;
}
const slidesHooks: SlidesHooks[] = [];

export function onSlidesChanged(hooks: SlidesHooks): void {
  slidesHooks.push(hooks);
}

/** How long a removed slide's comments wait for an undo before the next write of the deck purges them. */
export const REMOVED_SLIDES_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * Inside an accepted update's transaction: records the slides it removed and forgets those it brought
 * back (running the hooks for each), and purges the slides removed past `REMOVED_SLIDES_KEPT_MS`.
 */
export async function slidesChanged(
  tx: Database,
  projectId: string,
  removed: readonly string[],
  added: readonly string[],
): Promise<void> {
  if (removed.length > 0) {
    const now = new Date();
    await tx
      .insert(removedSlides)
      .values(removed.map((slideId) => ({ projectId, slideId, removedAt: now })))
      .onConflictDoUpdate({
        target: [removedSlides.projectId, removedSlides.slideId],
        set: { removedAt: now },
      });
    for (const hooks of slidesHooks) await hooks.removed(tx, projectId, removed);
  }
  if (added.length > 0) {
    const back = await tx
      .delete(removedSlides)
      .where(and(eq(removedSlides.projectId, projectId), inArray(removedSlides.slideId, [...added])))
      .returning({ slideId: removedSlides.slideId });
    if (back.length > 0)
      for (const hooks of slidesHooks)
        await hooks.restored(
          tx,
          projectId,
          back.map((row) => row.slideId),
        );
  }
  const gone = await tx
    .delete(removedSlides)
    .where(
      and(
        eq(removedSlides.projectId, projectId),
        lt(removedSlides.removedAt, new Date(Date.now() - REMOVED_SLIDES_KEPT_MS)),
      ),
    )
    .returning({ slideId: removedSlides.slideId });
  if (gone.length > 0)
    for (const hooks of slidesHooks)
      await hooks.purged(
        tx,
        projectId,
        gone.map((row) => row.slideId),
      );
}

export function recordSlidesEvent(tx: Pick<Tx, "execute">, event: SlidesEvent): Promise<void> {
  return recordEvent(tx, event);
}

fanOut<SlidesEvent & LedgerEvent>("deck.updated", ({ projectId, update, clientId }) => [
  { room: `project:${projectId}`, event: { type: "deck.updated", projectId, update, clientId } },
]);
