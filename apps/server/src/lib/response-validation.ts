/**
 * Checks each successful answer against its route's declared response schema (lib/routes.ts `response`):
 * an answer outside it becomes a 500 naming the route and what did not match. On in every test app, so
 * the whole suite holds each route to what the OpenAPI document promises its callers. An answer sent as
 * bytes (a kept JSON answer, lib/revalidate.ts: brotli- or gzip-encoded when the client accepts it) is
 * decoded and checked too.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { FastifyInstance, FastifyReply } from "fastify";

/** The JSON text of an answer, or null when it is none (a stream, a file, an answer of another type). */
function jsonTextOf(reply: FastifyReply, payload: unknown): string | null {
  if (typeof payload === "string") return payload;
  if (!Buffer.isBuffer(payload)) return null;
  const type = reply.getHeader("content-type");
  if (typeof type !== "string" || !type.startsWith("application/json")) return null;
  const encoding = reply.getHeader("content-encoding");
  if (encoding === "br") return brotliDecompressSync(payload).toString("utf8");
  if (encoding === "gzip") return gunzipSync(payload).toString("utf8");
  return encoding === undefined ? payload.toString("utf8") : null;
}

export function installResponseValidation(app: FastifyInstance): void {
  app.addHook("onSend", async (request, reply, payload) => {
    const schema = request.routeOptions.config?.doc?.response;
    if (!schema || schema === "not-json" || reply.statusCode >= 300) return payload;
    const text = jsonTextOf(reply, payload);
    if (text === null) return payload;
    const checked = schema.safeParse(JSON.parse(text));
    if (!checked.success)
      throw new Error(
        `${request.method} ${request.routeOptions.url} answered outside its response schema: ${checked.error.message}`,
      );
    return payload;
  });
}
