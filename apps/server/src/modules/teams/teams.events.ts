/**
 * A team's one domain event (issue #28): any change to a team or to someone's place in it records
 * `team.changed` in its transaction, naming the people to tell (its people at the write, and anyone who just
 * left) and, when someone is to be told in the bell, what about (SPEC §3 team-member-add, -access, -left).
 * Each named person's open screens hear `teams.changed`; the notifications consumer makes the notification.
 */
import type { LedgerEvent } from "../../lib/ledger.ts";
import { fanOut } from "../../lib/realtime.ts";
import { notifies } from "../notifications/notifications.rules.ts";
import type { TeamNotificationEvent } from "../notifications/notify-teams.ts";

export interface TeamChanged extends LedgerEvent {
  type: "team.changed";
  teamId: string;
  userIds: string[];
  about?: TeamNotificationEvent;
}

fanOut<TeamChanged>("team.changed", ({ teamId, userIds }) =>
  userIds.map((userId) => ({ room: `user:${userId}` as const, event: { type: "teams.changed", teamId } })),
);
notifies<TeamChanged>("team.changed", ({ about }) => about ?? null);
