/**
 * Suggested edits' domain events (issue #28): each write records one inside its transaction; the project
 * room hears that the version's changes changed (readers refetch them), and a save tells those who may
 * suggest edits themselves (SPEC §6) — the inspect module's rule, since it owns who may edit.
 */
import type { Access } from "@redline/shared";
import type { Database } from "../../db/index.ts";
import type { LedgerEvent } from "../../lib/ledger.ts";
import { EVERY_ACCESS } from "../../lib/policy.ts";
import { fanOut, recordEvent } from "../../lib/realtime.ts";
import { notifies, recipientRule } from "../notifications/notifications.rules.ts";
import { canInspect } from "./inspect.policy.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

interface VersionRef {
  id: string;
  projectId: string;
  pageId: string;
}

export type InspectEvent =
  /** One save of the edit panel: `editsCount` changes merged into the version's. */
  | { type: "inspect.saved"; actor: { userId: string }; version: VersionRef; editsCount: number }
  /** A change hidden, resolved or deleted. */
  | { type: "inspect.updated"; projectId: string; versionId: string };

export function recordInspectEvent(tx: Pick<Tx, "execute">, event: InspectEvent): Promise<void> {
  return recordEvent(tx, event);
}

type Of<T extends InspectEvent["type"]> = Extract<InspectEvent, { type: T }> & LedgerEvent;

const changed = (projectId: string, versionId: string) => [
  {
    room: `project:${projectId}` as const,
    event: { type: "inspect.changed" as const, projectId, versionId },
  },
];

fanOut<Of<"inspect.saved">>("inspect.saved", ({ version }) => changed(version.projectId, version.id));
fanOut<Of<"inspect.updated">>("inspect.updated", ({ projectId, versionId }) => changed(projectId, versionId));

notifies<Of<"inspect.saved">>("inspect.saved", ({ actor, version, editsCount }) => ({
  on: "inspect.saved",
  actor,
  version,
  editsCount,
}));

/** Those who may suggest edits themselves, by access. */
const suggesters: readonly Access[] = EVERY_ACCESS.filter((access) =>
  canInspect({ userId: null, access, isGuest: false }, "inspect.create"),
);

recipientRule("inspect.saved", (_tx, _about, people) =>
  [...people]
    .filter(([, access]) => suggesters.includes(access))
    .map(([userId]) => ({ userId, type: "web-inspect" })),
);
