import type { RealtimeServerMessage } from "@redline/shared";
import WebSocket from "ws";
import type { ApiClient } from "./http-client.ts";
import type { TestApp } from "./test-app.ts";

/** A public link's guest socket (`?guest`, no cookie) as the shared view opens it. */
export function openGuestSocket(app: TestApp) {
  return openSocket(app, null, app.url, "?guest");
}

/** A realtime socket as a browser tab opens it, with a queue of what it received (`received`). */
export async function openSocket(app: TestApp, client: ApiClient | null, origin = app.url, query = "") {
  const socket = new WebSocket(`${app.url.replace("http", "ws")}/api/realtime${query}`, {
    headers: { origin, ...(client && { cookie: client.cookieHeader() }) },
  });
  const received: RealtimeServerMessage[] = [];
  const waiters: (() => void)[] = [];
  socket.on("message", (data) => {
    received.push(JSON.parse(data.toString()));
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  return {
    socket,
    received,
    closed,
    send: (message: unknown) => socket.send(JSON.stringify(message)),
    async next(
      predicate: (m: RealtimeServerMessage) => boolean,
      // A loaded machine's fan-out (the ledger's reader, then the socket) outlasted 5 s in CI.
      timeoutMs = 15_000,
    ): Promise<RealtimeServerMessage> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find(predicate);
        if (found) {
          received.splice(received.indexOf(found), 1);
          return found;
        }
        if (Date.now() > deadline) throw new Error(`no matching message; got ${JSON.stringify(received)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
  };
}
