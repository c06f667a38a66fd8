/**
 * A page's approval and a page added, as domain events (issue #28): recorded once inside the write's transaction; every
 * process's caches of the project room forget what they read (no socket is told: the pages list is
 * refetched), and when the approval changed — not on a repeat — the project's people are told.
 */
import type { Database } from "../../db/index.ts";
import type { LedgerEvent } from "../../lib/ledger.ts";
import { fanOut, recordEvent } from "../../lib/realtime.ts";
import { notifies, recipientRule } from "../notifications/notifications.rules.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

interface Approval {
  actor: { userId: string };
  /** The page's latest version (null: it has none). */
  version: { id: string | null; projectId: string; pageId: string };
  approved: boolean;
  /** Whether the approval changed (false: approved again, or unapproved again). */
  isChange: boolean;
}

type PageApproval = Approval & LedgerEvent & { type: "page.approval" };

export function recordPageApproval(tx: Pick<Tx, "execute">, event: Approval): Promise<void> {
  return recordEvent(tx, { type: "page.approval", ...event });
}

fanOut<PageApproval>("page.approval", ({ version }) => [{ room: `project:${version.projectId}` }]);

notifies<PageApproval>("page.approval", ({ actor, version, approved, isChange }) =>
  isChange ? { on: "page.approval", actor, version, approved } : null,
);

recipientRule("page.approval", (_tx, { approved }, people) =>
  [...people.keys()].map((userId) => ({ userId, type: approved ? "page-approved" : "page-unapproved" })),
);

/** A page added to a project, with its first version (by whom: the version's creator). */
interface PageAdded {
  actor: { userId: string };
  version: { id: string; projectId: string; pageId: string };
}
type PageAddedEvent = PageAdded & LedgerEvent & { type: "page.added" };

export function recordPageAdded(tx: Pick<Tx, "execute">, event: PageAdded): Promise<void> {
  return recordEvent(tx, { type: "page.added", ...event });
}

// The pages list is refetched (no socket event); the project's people are told in the bell.
fanOut<PageAddedEvent>("page.added", ({ version }) => [{ room: `project:${version.projectId}` }]);
notifies<PageAddedEvent>("page.added", ({ actor, version }) => ({ on: "page.added", actor, version }));
recipientRule("page.added", (_tx, _about, people) =>
  [...people.keys()].map((userId) => ({ userId, type: "web-page-add" })),
);
