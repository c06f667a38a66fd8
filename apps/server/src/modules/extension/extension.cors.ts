/**
 * The browser extension calls the routes that accept it (`accepts: ["extension"]`: its own
 * `/api/extension/…`, and the image-page upload its region screenshot goes through) from its own origin,
 * `chrome-extension://<id>` (ADR 0037): those answers carry CORS headers for that origin, and their
 * preflights are answered here. No other origin gets them, and no other route answers across origins.
 */
import type { FastifyInstance } from "fastify";
import { acceptedBy } from "../../lib/principal.ts";

/** A route's path pattern (`/api/projects/:projectId/uploads`) as a test of a request's path. */
const patternOf = (url: string) =>
  new RegExp(`^${url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z0-9_]+/g, "[^/]+")}$`);

export function installExtensionCors(
  app: FastifyInstance,
  isExtension: (origin: string | undefined) => boolean,
): void {
  // The routes that accept the extension, as they are declared (after this hook).
  const routes: { methods: string[]; pattern: RegExp }[] = [];
  app.addHook("onRoute", (options) => {
    if (!acceptedBy(options.config?.doc).includes("extension")) return;
    const methods = [options.method].flat().map(String);
    routes.push({ methods, pattern: patternOf(options.url ?? options.path) });
  });
  const acceptsExtension = (method: string | undefined, url: string) => {
    const path = url.split("?")[0]!;
    return routes.some((route) => route.methods.includes(method ?? "") && route.pattern.test(path));
  };
  app.addHook("onRequest", async (request, reply) => {
    const { origin } = request.headers;
    if (!origin || !isExtension(origin)) return;
    const preflight = request.method === "OPTIONS";
    const method = preflight ? request.headers["access-control-request-method"] : request.method;
    if (!acceptsExtension(method, request.url)) return;
    reply.header("access-control-allow-origin", origin).header("vary", "origin");
    if (!preflight) return;
    return reply
      .header("access-control-allow-methods", "GET, POST, DELETE")
      .header("access-control-allow-headers", "authorization, content-type")
      .header("access-control-max-age", "600")
      .status(204)
      .send();
  });
}
