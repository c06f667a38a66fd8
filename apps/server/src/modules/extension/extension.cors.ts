/**
 * The browser extension calls its routes (`/api/extension/…`) from its own origin, `chrome-extension://<id>`
 * (ADR 0037): those answers carry CORS headers for that origin, and its preflights are answered here. No
 * other origin gets them, and no other route answers across origins.
 */
import type { FastifyInstance } from "fastify";

export const EXTENSION_API = "/api/extension/";

export function installExtensionCors(
  app: FastifyInstance,
  isExtension: (origin: string | undefined) => boolean,
): void {
  app.addHook("onRequest", async (request, reply) => {
    if (!request.url.startsWith(EXTENSION_API)) return;
    const { origin } = request.headers;
    if (!isExtension(origin)) return;
    reply.header("access-control-allow-origin", origin).header("vary", "origin");
    if (request.method !== "OPTIONS") return;
    return reply
      .header("access-control-allow-methods", "GET, POST, DELETE")
      .header("access-control-allow-headers", "authorization, content-type")
      .header("access-control-max-age", "600")
      .status(204)
      .send();
  });
}
