/**
 * Which domain events make notifications, and who hears of each: every module registers the rule for its
 * own events (`notifies`, in its events file) — what the notification is about and its recipient rule. The
 * notifications consumer (notifications.consumer.ts) reads the events after its durable cursor and applies
 * the rule; the actor and deleted users are never told, whatever a rule says.
 */
import type { Access, NotificationType } from "@redline/shared";
import type { Database } from "../../db/index.ts";
import type { LedgerEvent } from "../../lib/ledger.ts";
import type { NotificationEvent } from "./notify.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export interface Recipient {
  userId: string;
  type: NotificationType;
}

/** A project's people with an account, each with the highest access they hold. */
export type People = Map<string, Access>;

type About<On extends NotificationEvent["on"]> = Extract<NotificationEvent, { on: On }>;

/** Who is told of a notification's event, among its project's people. */
export type RecipientRule<N extends NotificationEvent = NotificationEvent> = (
  tx: Tx,
  about: N,
  people: People,
) => Recipient[] | Promise<Recipient[]>;

const abouts = new Map<string, (event: LedgerEvent) => NotificationEvent | null>();
const recipientRules = new Map<string, RecipientRule>();

/**
 * A module's domain event makes a notification: what it tells of the event (its place and words, as
 * notify.ts's `NotificationEvent`), or null when no one is told.
 */
export function notifies<E extends LedgerEvent>(
  type: E["type"],
  about: (event: E) => NotificationEvent | null,
): void {
  abouts.set(type, about as (event: LedgerEvent) => NotificationEvent | null);
}

/** The module that owns a notification's event says who is told of it. */
export function recipientRule<On extends NotificationEvent["on"]>(
  on: On,
  rule: RecipientRule<About<On>>,
): void {
  recipientRules.set(on, rule as RecipientRule);
}

export const notificationOf = (event: LedgerEvent): NotificationEvent | null | undefined =>
  abouts.get(event.type)?.(event);

export const makesNotifications = (type: string): boolean => abouts.has(type);

export const recipientRuleOf = (on: string): RecipientRule | undefined => recipientRules.get(on);
