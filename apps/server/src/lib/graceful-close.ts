import type { FastifyInstance } from "fastify";

/**
 * While a server closes, a keep-alive connection is closed as soon as it has no request in flight.
 *
 * Fastify closes the connections that are idle when closing starts. A response still being sent then
 * (a download streaming, a slow handler) leaves its connection open and idle once it ends, until the
 * keep-alive timeout (Fastify's default: 72 s) — and `close()` waits for it. Seen as a 70 s shutdown of a
 * test app whose last request was an attachment download; in production, a rolling restart held up for a
 * minute by one slow request. So while closing, idle connections are closed again every `everyMs`.
 */
export function endConnectionsWhenClosing(server: FastifyInstance, everyMs = 100): void {
  let sweeper: NodeJS.Timeout | undefined;
  server.addHook("preClose", async () => {
    sweeper = setInterval(() => server.server.closeIdleConnections(), everyMs);
    sweeper.unref();
  });
  server.addHook("onClose", async () => clearInterval(sweeper));
}
