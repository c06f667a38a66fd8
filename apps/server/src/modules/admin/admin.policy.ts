/**
 * Who may use the instance admin: the operators named in ADMIN_EMAILS (env.ts), signed in with a browser
 * session and a verified address. Like every entity's policy (lib/policy.ts) it is a table; its one level
 * is "admin". Anyone else — signed out, another user, an API token (admin tokens are out: an operator acts
 * from the browser, where each action is audited with their session) — is told the routes do not exist (404).
 */
import { authorizeWith, notAccessible, type PolicyActor, type PolicyTable } from "../../lib/policy.ts";
import type { Actor } from "../auth/session.ts";

export type AdminLevel = "admin";
export type AdminPolicyActor = PolicyActor<AdminLevel>;

export const ADMIN_POLICY = {
  "admin.read": [{ access: ["admin"] }],
  "admin.users.disable": [{ access: ["admin"] }],
  "admin.users.grant": [{ access: ["admin"] }],
  "admin.teams.disable": [{ access: ["admin"] }],
} as const satisfies PolicyTable<string, null, AdminLevel>;

export type AdminPolicyAction = keyof typeof ADMIN_POLICY;

/** Whether this address is one of the operators' (ADMIN_EMAILS, compared in lower case). */
export function isAdminEmail(adminEmails: readonly string[], email: string): boolean {
  return adminEmails.includes(email.trim().toLowerCase());
}

/** The policy's actor for a caller: "admin" only for an operator's verified browser session. */
export function adminActorOf(adminEmails: readonly string[], actor: Actor | null): AdminPolicyActor {
  const isAdmin =
    actor?.kind === "session" &&
    actor.user.emailVerified &&
    !actor.user.disabledAt &&
    isAdminEmail(adminEmails, actor.user.email);
  return {
    userId: actor?.user.id ?? null,
    access: isAdmin ? "admin" : null,
    isGuest: false,
    ...(actor && { kind: actor.kind }),
  };
}

const denials = { read: "admin.read" as const, notFound: notAccessible("Not found.", "not-found") };

/** 404 for anyone but an operator, whatever the action. */
export function authorizeAdmin(actor: AdminPolicyActor, action: AdminPolicyAction): void {
  authorizeWith<AdminPolicyAction, null, AdminLevel>(ADMIN_POLICY, denials, actor, action, null);
}
