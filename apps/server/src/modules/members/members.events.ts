/**
 * A project's people as domain events (issue #28): adding someone and making someone an approver each
 * record one event in their transaction. What follows is said here — the person's tabs refetch their
 * project list, every process's caches of the project forget what they read, and the person is told in
 * the bell (SPEC §3 project-share, make-approver) when they are new to it.
 */
import type { Database } from "../../db/index.ts";
import type { LedgerEvent } from "../../lib/ledger.ts";
import { fanOut, recordEvent } from "../../lib/realtime.ts";
import { notifies, recipientRule } from "../notifications/notifications.rules.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type MemberEvent =
  /** Someone with an account given access (`isNew`: they were not among the members before). */
  | { type: "member.added"; actor: { userId: string }; projectId: string; userId: string; isNew: boolean }
  /** Someone made an approver or no longer one (`made`: made one just now, not again). */
  | { type: "member.approver"; actor: { userId: string }; projectId: string; userId: string; made: boolean };

export function recordMemberEvent(tx: Pick<Tx, "execute">, event: MemberEvent): Promise<void> {
  return recordEvent(tx, event);
}

type Of<T extends MemberEvent["type"]> = Extract<MemberEvent, { type: T }> & LedgerEvent;

fanOut<Of<"member.added">>("member.added", ({ projectId, userId }) => [
  { room: `user:${userId}`, event: { type: "projects.changed", projectId } },
]);
notifies<Of<"member.added">>("member.added", ({ actor, projectId, userId, isNew }) =>
  isNew ? { on: "member.added", actor, projectId, userId } : null,
);
recipientRule("member.added", (_tx, { userId }) => [{ userId, type: "project-share" }]);

// Who approves shows in the project and sets its people's abilities.
fanOut<Of<"member.approver">>("member.approver", ({ projectId }) => [{ room: `project:${projectId}` }]);
notifies<Of<"member.approver">>("member.approver", ({ actor, projectId, userId, made }) =>
  made ? { on: "approver.made", actor, projectId, userId } : null,
);
recipientRule("approver.made", (_tx, { userId }, people) =>
  people.has(userId) ? [{ userId, type: "make-approver" }] : [],
);
