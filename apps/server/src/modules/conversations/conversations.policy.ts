/**
 * Who may do what in the messages area. A project conversation is for the project's people (owner,
 * members of any access, the team's people who are in the project) and guests of its public link — and
 * among them only those taking part in it; everyone else gets a 404, as for any hidden resource. Anyone
 * who can see the project may start a conversation in it (a guest: their own, with the project's people).
 * A support conversation is its asker's and the support account's: they reach it with "comment" access.
 */
import type { ConversationAbilities } from "@redline/shared";
import {
  allows,
  authorizeWith,
  EVERY_ACCESS,
  notAccessible,
  type PolicyActor,
  type PolicyTable,
} from "../../lib/policy.ts";
import { discussionSubject } from "../discussion/discussion.ts";

export type ConversationAction =
  | "conversations.read"
  | "conversations.send"
  | "conversations.attach"
  | "conversations.start";

export interface ConversationTarget {
  /** The actor takes part in the conversation (meaningless for `conversations.start`). */
  isParticipant: boolean;
}

const takesPart = (_actor: PolicyActor, target: ConversationTarget) => target.isParticipant;

export const CONVERSATION_POLICY: PolicyTable<ConversationAction, ConversationTarget> = {
  "conversations.read": [{ access: EVERY_ACCESS, guests: true, when: takesPart }],
  "conversations.send": [{ access: EVERY_ACCESS, guests: true, when: takesPart }],
  "conversations.attach": [{ access: EVERY_ACCESS, guests: true, when: takesPart }],
  "conversations.start": [{ access: EVERY_ACCESS, guests: true }],
};

export function canConversation(
  actor: PolicyActor,
  action: ConversationAction,
  target: ConversationTarget,
): boolean {
  return allows(CONVERSATION_POLICY, actor, action, target);
}

/** 404 when the actor may not read the conversation (not in it, or no longer in its project). */
export function authorizeConversation(
  actor: PolicyActor,
  action: ConversationAction,
  target: ConversationTarget,
): void {
  authorizeWith(
    CONVERSATION_POLICY,
    {
      read: action === "conversations.start" ? "conversations.start" : "conversations.read",
      notFound: notAccessible("Conversation not found.", "conversation-not-found"),
    },
    actor,
    action,
    target,
  );
}

export function conversationAbilities(actor: PolicyActor, target: ConversationTarget): ConversationAbilities {
  return {
    send: canConversation(actor, "conversations.send", target),
    attach: canConversation(actor, "conversations.attach", target),
  };
}

/**
 * A conversation as a discussion (modules/discussion), for someone who takes part in it or not: its messages
 * are written and attached to, never edited nor deleted.
 */
export const conversationDiscussion = (isParticipant: boolean) =>
  discussionSubject(
    "conversation",
    {
      read: "conversations.read",
      write: "conversations.send",
      attach: "conversations.attach",
      edit: null,
      delete: null,
    },
    { authorize: authorizeConversation, can: canConversation },
    (): ConversationTarget => ({ isParticipant }),
  );
