/**
 * Stopping while browsers reconnect: a page told "restart" (1012) reconnects at once, and its upgrade can
 * reach this process while it stops. The router answers it 503; the app ends that connection, so the stop
 * does not wait on it (it used to wait until something cut it: google.e2e's close hung past 90 s).
 */
import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { startTestApp } from "../../testing/test-app.ts";

/** A raw WebSocket upgrade of /api/realtime; resolves with what came back once the server ends it. */
function upgrade(url: string): Promise<{ answer: string; socket: Socket }> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    let answer = "";
    const socket = connect(Number(port), "127.0.0.1", () =>
      socket.write(
        `GET /api/realtime HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${url}\r\nConnection: Upgrade\r\n` +
          "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
      ),
    );
    socket.on("data", (data) => {
      answer += data.toString();
    });
    socket.on("error", () => {});
    socket.on("close", () => resolve({ answer, socket }));
  });
}

describe("realtime: stopping while sockets reconnect", () => {
  it("answers an upgrade that arrives while stopping with 503 and ends it, so the stop does not wait", async () => {
    const t = await startTestApp({ driver: "pglite", smtp: false });
    // An open socket whose page does not answer the restart close: the stop spends its 2 s on it.
    const first = upgrade(t.url);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    const stopped = t.close().then(() => performance.now() - started);
    // The stop has begun (the sockets are being told to reconnect): a browser reconnects at once.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const late = await upgrade(t.url);
    expect(late.answer).toMatch(/^HTTP\/1\.1 503 /);
    expect((await first).answer).toMatch(/^HTTP\/1\.1 101 /);
    // The test app would end a connection still open 20 s into closing; the app's own stop is far sooner.
    expect(await stopped).toBeLessThan(10_000);
  }, 60_000);
});
