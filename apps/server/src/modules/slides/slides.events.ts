/**
 * The deck's domain events (issue #32): an accepted update reaches the project's room, so every open
 * editor — in this process or another — applies it (Yjs updates commute: order does not matter).
 */
import type { Database } from "../../db/index.ts";
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
 * What another module does, inside a deck update's transaction, when the update removes slides — the
 * comments module deletes their comments (comments.slides.ts registers it), so this module needs not know
 * of comments (modules/imports.test.ts: no two modules import each other).
 */
type SlidesRemovedHook = (tx: Database, projectId: string, slideIds: readonly string[]) => Promise<unknown>;
const slidesRemovedHooks: SlidesRemovedHook[] = [];

export function onSlidesRemoved(hook: SlidesRemovedHook): void {
  slidesRemovedHooks.push(hook);
}

/** Runs every registered hook for the slides an accepted update removed (none removed: nothing). */
export async function slidesRemoved(tx: Database, projectId: string, slideIds: readonly string[]) {
  if (slideIds.length === 0) return;
  for (const hook of slidesRemovedHooks) await hook(tx, projectId, slideIds);
}

export function recordSlidesEvent(tx: Pick<Tx, "execute">, event: SlidesEvent): Promise<void> {
  return recordEvent(tx, event);
}

fanOut<SlidesEvent & LedgerEvent>("deck.updated", ({ projectId, update, clientId }) => [
  { room: `project:${projectId}`, event: { type: "deck.updated", projectId, update, clientId } },
]);
