/**
 * Who is calling. Today two kinds: a person's browser session (cookie, resolved lazily by
 * modules/auth/session.ts `getActor`) and a person's API token (bearer, resolved once per request by
 * modules/auth/api-tokens.ts before anything else runs). A route says which kinds it accepts in its
 * declaration (lib/routes.ts `accepts`); the token hook enforces it, and the same-origin (CSRF) check
 * applies to cookie sessions only. A third kind, the link guest (a visitor of a public link, read from
 * their headers by `linkGuestOf`), is what the guest conversation operations take; it is not yet a kind a
 * route declares (the `/api/share/*` routes are "public" and ask the project's link themselves).
 */
import { type ApiTokenScope, GUEST_KEY_HEADER } from "@redline/shared";
import type { UserRow } from "../db/schema/index.ts";

/**
 * Every kind of caller a route may accept (its declaration's `accepts`):
 * - `session`: a person's browser session (cookie); the same-origin (CSRF) check applies to it alone;
 * - `token`: a person's API token (bearer), resolved first by modules/auth/api-tokens.ts;
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

export type Principal = TokenPrincipal | ExtensionPrincipal;

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
 * came through is the operation's input; the project's link settings decide what they may do.
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

declare module "fastify" {
  interface FastifyRequest {
    /** Set before the route runs when the request carries an API token. */
    principal?: Principal;
  }
}
