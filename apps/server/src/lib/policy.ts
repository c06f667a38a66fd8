/**
 * The shape every entity's policy takes: a declarative table from action to the rules that allow it.
 * A rule names the access levels it admits and, optionally, a condition on the actor and the resource
 * (the author of an entry, an approver, …). Guests of a public link are admitted only by a rule that
 * says so. Routes ask `allows`/`authorize` of the entity's policy; presenters turn the same table into
 * the abilities sent with each resource, so the browser never re-derives a rule.
 */
import type { Access } from "@redline/shared";
import { ForbiddenError, NotFoundError } from "./errors.ts";
import type { LinkGuestPrincipal, PersonPrincipal, PrincipalKind } from "./principal.ts";

/**
 * Who is acting: a signed-in user with their access to the project, or a guest of its public link.
 * `Level` is the entity's access levels: a project's by default, a team's roles for the team policy.
 */
export interface PolicyActor<Level extends string = Access> {
  userId: string | null;
  access: Level | null;
  /** A visitor through the public link (no account); `access` is what the link allows. */
  isGuest: boolean;
  /**
   * How the caller came (lib/principal.ts): a person's session, API token or the browser extension, or a
   * visitor of the public link — set by `policyActorOf` for every request; absent only where no request is
   * behind the question (a presenter's abilities for a reader, a check the server makes itself).
   */
  kind?: PrincipalKind;
}

/**
 * Who a policy is asked about (lib/principal.ts): a person — their principal (session, token, extension),
 * or the Actor read from it (modules/auth/session.ts), which keeps its kind — or a visitor of a project's
 * public link.
 */
export type PolicyCaller =
  | { kind: PersonPrincipal["kind"]; user: { id: string } }
  | Pick<LinkGuestPrincipal, "kind">;

/** The public link's visitor as the policy sees them: whoever they are, what the link allows decides. */
export const LINK_VISITOR: Pick<LinkGuestPrincipal, "kind"> = { kind: "link-guest" };

/**
 * The one place a policy's actor is made: who is calling, with their access to the project — a person's
 * own access, or for a visitor of the public link what the link allows (`guestAccess`).
 */
export function policyActorOf(caller: PolicyCaller, access: Access | null): PolicyActor {
  return "user" in caller
    ? { userId: caller.user.id, access, isGuest: false, kind: caller.kind }
    : { userId: null, access, isGuest: true, kind: caller.kind };
}

export interface Rule<Resource, Level extends string = Access> {
  access: readonly Level[];
  /** Guests of the public link may use this rule too. */
  guests?: boolean;
  /** A condition beyond access, e.g. "the actor wrote this entry". */
  when?: (actor: PolicyActor<Level>, resource: Resource) => boolean;
}

export type PolicyTable<Action extends string, Resource, Level extends string = Access> = Record<
  Action,
  readonly Rule<Resource, Level>[]
>;

export const EVERY_ACCESS: readonly Access[] = ["owner", "edit", "comment", "view"];
export const CONTRIBUTORS: readonly Access[] = ["owner", "edit", "comment"];
export const EDITORS: readonly Access[] = ["owner", "edit"];
export const OWNER: readonly Access[] = ["owner"];

export function allows<Action extends string, Resource, Level extends string = Access>(
  table: PolicyTable<Action, Resource, Level>,
  actor: PolicyActor<Level>,
  action: Action,
  resource: Resource,
): boolean {
  const { access } = actor;
  if (access === null) return false;
  return table[action].some(
    (rule) =>
      rule.access.includes(access) &&
      (!actor.isGuest || rule.guests === true) &&
      (rule.when?.(actor, resource) ?? true),
  );
}

export interface Denials<Action extends string> {
  /** The action every other needs: without it the resource does not exist for the actor (404). */
  read: Action;
  notFound: () => never;
  /** The 403 for an action the actor may not take (per action, and for guests). */
  forbidden?: Partial<
    Record<Action, { message: string; code?: string; guest?: { message: string; code: string } }>
  >;
}

/** Throws 404 when the actor may not even read the resource, 403 when it may read but not do this. */
export function authorizeWith<Action extends string, Resource, Level extends string = Access>(
  table: PolicyTable<Action, Resource, Level>,
  denials: Denials<Action>,
  actor: PolicyActor<Level>,
  action: Action,
  resource: Resource,
): void {
  if (!allows(table, actor, denials.read, resource)) denials.notFound();
  if (allows(table, actor, action, resource)) return;
  const denial = denials.forbidden?.[action];
  if (actor.isGuest && denial?.guest) throw new ForbiddenError(denial.guest.message, denial.guest.code);
  throw new ForbiddenError(denial?.message, denial?.code);
}

export function notAccessible(message: string, code: string): () => never {
  return () => {
    throw new NotFoundError(message, code);
  };
}
