/**
 * Checks each successful answer against its route's declared response schema (lib/routes.ts `response`):
 * an answer outside it becomes a 500 naming the route and what did not match. On in every test app, so
 * the whole suite holds each route to what the OpenAPI document promises its callers.
 */
import type { FastifyInstance } from "fastify";

export function installResponseValidation(app: FastifyInstance): void {
  app.addHook("onSend", async (request, reply, payload) => {
    const schema = request.routeOptions.config?.doc?.response;
    if (!schema || schema === "not-json" || reply.statusCode >= 300 || typeof payload !== "string")
      return payload;
    const checked = schema.safeParse(JSON.parse(payload));
    if (!checked.success)
      throw new Error(
        `${request.method} ${request.routeOptions.url} answered outside its response schema: ${checked.error.message}`,
      );
    return payload;
  });
}
