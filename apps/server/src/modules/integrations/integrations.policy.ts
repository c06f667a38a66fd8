/**
 * Who may see and change a project's integrations: its owner and those who edit it (the team's people
 * who edit included). Others who can open the project are told no (403); anyone else finds nothing (404).
 * The owner's plan decides separately whether the project has integrations at all (integrations.load.ts).
 */
import { SHARING_MESSAGES } from "@redline/shared";
import {
  allows,
  authorizeWith,
  EDITORS,
  EVERY_ACCESS,
  notAccessible,
  type PolicyActor,
  type PolicyTable,
} from "../../lib/policy.ts";

export type IntegrationAction =
  /** Seeing that the project exists (the denial's line between 404 and 403); no route is this alone. */
  | "integrations.project"
  | "integrations.read"
  | "integrations.manage"
  /** The task-tracker cards made from its comments, edits and tickets: their links show to all who see those. */
  | "integrations.cards";

export const INTEGRATION_POLICY: PolicyTable<IntegrationAction, object> = {
  "integrations.project": [{ access: EVERY_ACCESS }],
  "integrations.read": [{ access: EDITORS }],
  "integrations.manage": [{ access: EDITORS }],
  "integrations.cards": [{ access: EVERY_ACCESS }],
};

export function canIntegrations(actor: PolicyActor, action: IntegrationAction): boolean {
  return allows(INTEGRATION_POLICY, actor, action, {});
}

export function authorizeIntegrations(actor: PolicyActor, action: IntegrationAction): void {
  authorizeWith(
    INTEGRATION_POLICY,
    {
      read: "integrations.project",
      notFound: notAccessible(SHARING_MESSAGES.notAccessible, "project-not-accessible"),
      forbidden: {
        "integrations.read": { message: "Only the project's owner and editors see its integrations." },
        "integrations.manage": { message: "Only the project's owner and editors change its integrations." },
      },
    },
    actor,
    action,
    {},
  );
}
