import http from "node:http";
import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { endConnectionsWhenClosing } from "./graceful-close.ts";

/** A keep-alive request answered 300 ms after it arrives; closing starts 100 ms after it was sent. */
async function closeDuringRequest(graceful: boolean) {
  const server = Fastify({ keepAliveTimeout: 20_000 });
  if (graceful) endConnectionsWhenClosing(server);
  server.get("/slow", async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { ok: true };
  });
  await server.listen({ host: "127.0.0.1", port: 0 });
  const { port } = server.server.address() as AddressInfo;
  const agent = new http.Agent({ keepAlive: true });
  const answer = new Promise<{ status?: number; connection?: string }>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/slow", agent }, (response) => {
        response.resume();
        response.on("end", () =>
          resolve({ status: response.statusCode, connection: response.headers.connection }),
        );
      })
      .on("error", reject);
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = performance.now();
  const closed = server.close().then(() => performance.now() - started);
  const response = await answer;
  const closeMs = await Promise.race([
    closed,
    new Promise<number>((r) => setTimeout(() => r(Infinity), 3_000)),
  ]);
  agent.destroy();
  await closed;
  return { response, closeMs };
}

describe("endConnectionsWhenClosing", () => {
  it("answers a request in flight, then closes its connection: closing does not wait for keep-alive", async () => {
    const { response, closeMs } = await closeDuringRequest(true);
    expect(response.status).toBe(200);
    expect(closeMs).toBeLessThan(3_000);
  });

  it("is needed: without it the connection stays open after the answer and closing waits", async () => {
    const { response, closeMs } = await closeDuringRequest(false);
    expect(response).toEqual({ status: 200, connection: "keep-alive" });
    expect(closeMs).toBe(Infinity);
  });
});
