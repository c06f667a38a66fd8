/**
 * Who is calling: one `Principal` per request, resolved once before the route runs by one hook
 * (modules/auth/principal-hook.ts) into `request.principal` — a person's browser session (cookie), a
 * person's API token or the browser extension's credential (bearer), a visitor of a project's public link,
 * a page carrying a project's widget key, another service that signs its calls — or null: nobody the route
 * knows. A route says which kinds it accepts in its declaration (lib/routes.ts `accepts`); the hook reads
 * only what those kinds carry (a bearer header, the session cookie, the guest headers), refuses a token
 * the route does not take or outside the token's scope, and the same-origin (CSRF) check skips the callers
 * that carry their own credential or prove themselves. Everything after reads `request.principal`:
 * session.ts `getActor`, the rate limits, the policies (lib/policy.ts `policyActorOf`).
 */
import { type ApiTokenScope, GUEST_KEY_HEADER } from "@redline/shared";
import type { UserRow } from "../db/schema/index.ts";

/**
 * Every kind of caller a route may accept (its declaration's `accepts`):
 * - `session`: a person's browser session (cookie); the same-origin (CSRF) check guards it, as it guards
 *   every write a browser sends without a credential of its own (a link guest's, an anonymous one);
 * - `token`: a person's API token (bearer), resolved by the principal hook (api-tokens.ts `bearerResolver`);
 * - `link-guest`: a visitor of a project's public link, named by their headers (`linkGuestOf`);
 * - `widget-key`: a page carrying a project's widget key, from an origin the project allows — called from
 *   other sites by design, so its own check (the key and the origin) takes the place of the same-origin one;
 * - `signed`: another service (a payment provider's webhook, a mail client's one-click unsubscribe) that
 *   proves itself by a signature the route checks — no same-origin check, no per-caller write limit;
 * - `extension`: the browser extension (apps/extension, ADR 0037): a credential handed to it from a signed-in
 *   session (an `api_tokens` row of kind "extension"), sent as a bearer header from the extension's own
 *   origin (`chrome-extension://<id>`) — the only origin it is taken from, and the only foreign origin the
 *   same-origin check lets through, for the routes that accept it;
 * - `integration`: an outside service connected to a project (issue #30); no route accepts it yet.
 */
export type PrincipalKind =
  | "session"
  | "token"
  | "link-guest"
  | "widget-key"
  | "signed"
  | "integration"
  | "extension";

/** Methods that change nothing: a read token may use them, and the same-origin check skips them. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * What a route through a project's public link (`/api/share/…`) accepts: its visitors, and anyone else who
 * holds the link — a signed-in person or a token act through it as a visitor does (`throughLink`).
 */
export const THROUGH_THE_LINK: readonly PrincipalKind[] = ["session", "token", "link-guest"];

/** What a route accepts when its declaration does not say. */
export const DEFAULT_ACCEPTS: readonly PrincipalKind[] = ["session", "token"];

/** The kinds a declared route accepts (a route without a declaration: none of ours). */
export const acceptedBy = (
  doc: { accepts?: readonly PrincipalKind[] } | undefined,
): readonly PrincipalKind[] => doc?.accepts ?? (doc ? DEFAULT_ACCEPTS : []);

/** Whether a route's callers prove themselves (a signature, a widget key): no same-origin check for them. */
export const provesItself = (doc: { accepts?: readonly PrincipalKind[] } | undefined): boolean =>
  acceptedBy(doc).some((kind) => kind === "signed" || kind === "widget-key");

export interface TokenPrincipal {
  kind: "token";
  user: UserRow;
  tokenId: string;
  scope: ApiTokenScope;
  createdAt: Date;
}

export interface ExtensionPrincipal {
  kind: "extension";
  user: UserRow;
  tokenId: string;
  createdAt: Date;
}

/** A person signed in with their browser: the session cookie, its signature checked (modules/auth/session.ts). */
export interface SessionPrincipal {
  kind: "session";
  user: UserRow;
  createdAt: Date;
}

/**
 * A page carrying a project's widget key: the key travels in the report's body and the route checks it
 * with the page's origin against the project's settings (modules/widget/widget-intake.routes.ts). Until the
 * route has, this says only what the caller claims.
 */
export interface WidgetKeyPrincipal {
  kind: "widget-key";
  origin: string | null;
}

/** Another service calling a route that checks its signature itself (a webhook, a one-click unsubscribe). */
export interface SignedPrincipal {
  kind: "signed";
}

/** An outside service connected to a project, acting for it (issue #30): no route accepts it yet. */
export interface IntegrationPrincipal {
  kind: "integration";
  projectId: string;
  integrationId: string;
}

/** A person acting: through their session, an API token or the browser extension. */
export type PersonPrincipal = SessionPrincipal | TokenPrincipal | ExtensionPrincipal;

/** A caller with its own credential in the request (a bearer header): no cookie of theirs is read. */
export type BearerPrincipal = TokenPrincipal | ExtensionPrincipal;

export type Principal =
  | PersonPrincipal
  | LinkGuestPrincipal
  | WidgetKeyPrincipal
  | SignedPrincipal
  | IntegrationPrincipal;

/** The principal when it is a person (session, token, extension), else null. */
export function personOf(principal: Principal | null | undefined): PersonPrincipal | null {
  const kind = principal?.kind;
  return kind === "session" || kind === "token" || kind === "extension"
    ? (principal as PersonPrincipal)
    : null;
}

/** The principal when it came with a bearer credential (an API token, the extension's), else null. */
export function bearerOf(principal: Principal | null | undefined): BearerPrincipal | null {
  return principal?.kind === "token" || principal?.kind === "extension" ? principal : null;
}

/**
 * Whether an Origin header is the browser extension's: one of the configured origins
 * (`EXTENSION_ORIGINS`), where a trailing `*` stands for any id (Firefox gives each install its own).
 */
export function isExtensionOrigin(origin: string | undefined, allowed: readonly string[]): boolean {
  if (!origin || !/^(?:chrome|moz)-extension:\/\/[a-z0-9-]+$/i.test(origin)) return false;
  return allowed.some((entry) =>
    entry.endsWith("*") ? origin.startsWith(entry.slice(0, -1)) : origin === entry,
  );
}

/** The header a link guest names themselves with (SPEC §3 guest identity, or `public` for 'Anonymous'). */
export const GUEST_IDENTITY_HEADER = "x-redline-guest";

/**
 * A visitor of a project's public link, without an account: what their browser sends to name them and to
 * find their own things, as sent (each operation validates what it needs). Which project's link they
 * came through is the operation's input; the project's link settings decide what they may do. A route
 * through the link (`/api/share/…`) acts through it for whoever calls — a signed-in person too, whose
 * session the route may also accept — so it reads the visitor with `throughLink`.
 */
export interface LinkGuestPrincipal {
  kind: "link-guest";
  identity: string | null;
  key: string | null;
}

export function linkGuestOf(request: {
  headers: Record<string, string | string[] | undefined>;
}): LinkGuestPrincipal {
  const header = (name: string) => {
    const value = request.headers[name];
    return typeof value === "string" ? value : null;
  };
  return { kind: "link-guest", identity: header(GUEST_IDENTITY_HEADER), key: header(GUEST_KEY_HEADER) };
}

/** The caller as a visitor of the link: the link guest the hook resolved, or the same headers of anyone else. */
export function throughLink(request: {
  principal?: Principal | null;
  headers: Record<string, string | string[] | undefined>;
}): LinkGuestPrincipal {
  return request.principal?.kind === "link-guest" ? request.principal : linkGuestOf(request);
}

declare module "fastify" {
  interface FastifyRequest {
    /** Who is calling, set once before the route runs (modules/auth/principal-hook.ts); null: nobody known. */
    principal?: Principal | null;
  }
}
