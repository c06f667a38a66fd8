/**
 * Who is calling. Today two kinds: a person's browser session (cookie, resolved lazily by
 * modules/auth/session.ts `getActor`) and a person's API token (bearer, resolved once per request by
 * modules/auth/api-tokens.ts before anything else runs). A route says which kinds it accepts in its
 * declaration (lib/routes.ts `accepts`); the token hook enforces it, and the same-origin (CSRF) check
 * applies to cookie sessions only.
 */
import type { ApiTokenScope } from "@redline/shared";
import type { UserRow } from "../db/schema/index.ts";

export type PrincipalKind = "session" | "token";

/** Methods that change nothing: a read token may use them, and the same-origin check skips them. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/** What a route accepts when its declaration does not say. */
export const DEFAULT_ACCEPTS: readonly PrincipalKind[] = ["session", "token"];

export interface TokenPrincipal {
  kind: "token";
  user: UserRow;
  tokenId: string;
  scope: ApiTokenScope;
  createdAt: Date;
}

export type Principal = TokenPrincipal;

declare module "fastify" {
  interface FastifyRequest {
    /** Set before the route runs when the request carries an API token. */
    principal?: Principal;
  }
}
