/**
 * A route is declared once, where it is registered: its summary, the zod schemas its handler parses
 * (body, query), whether it takes an upload, and the policy action that guards it — passed to Fastify
 * as the route's config (`app.get(url, route({...}), handler)`). app.ts collects the declarations as
 * routes register; the OpenAPI document (openapi.ts) and the authorization matrix's coverage check read
 * that registry, so no second table of routes exists to drift.
 */
import type { ZodType } from "zod";
import type { PrincipalKind } from "./principal.ts";

export interface RouteDoc {
  summary: string;
  /** The policy action the handler authorizes (e.g. "comments.create"); "public" needs no session;
   *  "self" is the signed-in user's own data (profile, notifications, project list). */
  action: string;
  /** JSON request body. */
  body?: ZodType;
  /** Query string (an object schema: each property is one parameter). */
  query?: ZodType;
  /** multipart/form-data with one `file` field. */
  upload?: true;
  /** The kinds of caller it accepts (lib/principal.ts `PrincipalKind`); unsaid: a signed-in session or an
   *  API token (a read token on GET only). Billing, account and token management say ["session"]; a
   *  provider's webhook ["signed"]; the widget's report intake ["widget-key"]. */
  accepts?: readonly PrincipalKind[];
  /** The JSON body of a successful (2xx) answer. The OpenAPI document publishes it, and with
   *  `validateResponses` on (every test app) each real answer is checked against it: one that does not
   *  match is a 500, so the suite catches a route drifting from what it promises callers. "not-json":
   *  the answer is no JSON document (a file, a redirect, 204 No Content, a protocol's own answer such as
   *  tus). */
  response?: ZodType | "not-json";
  /** Writes nothing itself whatever its method, so a read-only token may call it (the MCP endpoint: each
   *  of its tools is a route of its own, checked again). */
  writes?: false;
  /** Changes neither the caller's account nor their session whatever its method (an analytics event,
   *  presence): the session cache keeps the caller after it (modules/auth/session-cache.ts
   *  `forgetAfterWrites`), and so do the caches that follow the caller (a version's comment list, which
   *  holds its authors' names, is read again after its author changes). */
  keepsCaller?: true;
}

declare module "fastify" {
  interface FastifyContextConfig {
    doc?: RouteDoc;
  }
}

/** Route options carrying the declaration (with any other options the route needs). */
export function route<Options extends object = object>(
  doc: RouteDoc,
  options?: Options,
): Options & { config: { doc: RouteDoc } } {
  return { ...(options as Options), config: { doc } };
}

export interface RegisteredRoute {
  method: string;
  url: string;
  doc?: RouteDoc;
}
