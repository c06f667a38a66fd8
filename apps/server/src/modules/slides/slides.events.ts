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

export function recordSlidesEvent(tx: Pick<Tx, "execute">, event: SlidesEvent): Promise<void> {
  return recordEvent(tx, event);
}

fanOut<SlidesEvent & LedgerEvent>("deck.updated", ({ projectId, update, clientId }) => [
  { room: `project:${projectId}`, event: { type: "deck.updated", projectId, update, clientId } },
]);
