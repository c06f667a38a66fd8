/**
 * The front door: who is calling, resolved once per request before anything else reads it, into
 * `request.principal` (lib/principal.ts). The route's declaration says which kinds it accepts
 * (lib/routes.ts `accepts`), and only what those kinds carry is read, in this order:
 * - a bearer header (on the API and the MCP endpoint, unless the route's callers sign their calls): an API
 *   token or the extension's credential (api-tokens.ts `bearerResolver`) — 401 when malformed or not live,
 *   403 when the route does not take it or the token's scope does not cover the call; its cookies are not
 *   read;
 * - a route whose callers sign their calls, or carry a widget key: that kind (the route checks the
 *   signature or the key, as it alone can read them);
 * - the session cookie, for a route that accepts sessions (session.ts `resolveSession`);
 * - the guest headers, for a route through a public link (lib/principal.ts `linkGuestOf`);
 * - else null: nobody the route knows. A route that needs a person answers 401 (session.ts
 *   `requireActor`); the route, not the hook, answers it, so each route's own order of answers stays.
 * A route without a declaration (better-auth's, static files, the stand-ins) gets null and reads nothing but
 * a bearer header on the API, which it refuses as a route that takes no token.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Database } from "../../db/index.ts";
import { acceptedBy, linkGuestOf, type Principal, personOf } from "../../lib/principal.ts";
import { bearerResolver } from "./api-tokens.ts";
import type { Auth } from "./auth.ts";
import { resolveSession } from "./session.ts";

/** Where a bearer header is a credential of ours: elsewhere it is someone else's (the embedded stand-ins of
 *  Stripe and PayPal are called with their own keys) or means nothing (static files). */
const readsBearer = (url: string) => url.startsWith("/api/") || url.startsWith("/mcp");

export function installPrincipal(
  app: FastifyInstance,
  {
    auth,
    db,
    isExtension,
  }: { auth: Auth; db: Database; isExtension: (origin: string | undefined) => boolean },
): void {
  const bearer = bearerResolver(db, isExtension);
  const resolve = async (request: FastifyRequest): Promise<Principal | null> => {
    const doc = request.routeOptions.config?.doc;
    const accepts = acceptedBy(doc);
    // A provider's webhook authenticates itself; its headers (an Authorization too) are the provider's business.
    if (accepts.includes("signed")) return { kind: "signed" };
    // A token on an API route that takes none (better-auth's: no declaration) is refused there too.
    const header = request.headers.authorization;
    if (header !== undefined && readsBearer(request.url)) return bearer(request, header, doc);
    if (accepts.length === 0) return null;
    if (accepts.includes("widget-key")) return { kind: "widget-key", origin: request.headers.origin ?? null };
    const session = accepts.includes("session") ? await resolveSession(auth, db, request) : null;
    if (session) return session;
    return accepts.includes("link-guest") ? linkGuestOf(request) : null;
  };
  app.addHook("onRequest", async (request) => {
    request.principal = null;
    const principal = await resolve(request);
    request.principal = principal;
    // A write by a person forgets their cached session entries before the answer leaves (session-cache.ts).
    const person = personOf(principal);
    if (person) request.sessionUserId = person.user.id;
  });
}
