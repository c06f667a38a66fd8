import { REALTIME_RESTART_CLOSE } from "@redline/shared";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** A WebSocket the test drives: the server's side is `open()`, `receive()` and `serverClose()`. */
class FakeSocket {
  static OPEN = 1;
  static instances: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  constructor(readonly url: URL) {
    FakeSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  serverClose(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

describe("the tab's realtime socket", () => {
  beforeEach(() => {
    FakeSocket.instances = [];
    vi.useFakeTimers();
    vi.stubGlobal("WebSocket", FakeSocket);
    vi.resetModules();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("reconnects within half a second of a server's 'restarting' close, joins again and resyncs", async () => {
    const { realtime } = await import("./realtime.ts");
    const onResync = vi.fn();
    const onEvent = vi.fn();
    const stop = realtime().subscribe("p1", { onEvent, onResync });
    const first = FakeSocket.instances[0]!;
    first.open();
    expect(first.sent).toEqual([{ type: "join", projectId: "p1" }]);
    first.receive({ type: "joined", projectId: "p1" });
    expect(onResync).toHaveBeenCalledTimes(1);

    first.serverClose(REALTIME_RESTART_CLOSE.code);
    await vi.advanceTimersByTimeAsync(500);
    const second = FakeSocket.instances[1]!;
    expect(second).toBeDefined();
    second.open();
    expect(second.sent).toEqual([{ type: "join", projectId: "p1" }]);
    // Joined again: the view reads what it shows again (events sent while away are not replayed).
    second.receive({ type: "joined", projectId: "p1" });
    expect(onResync).toHaveBeenCalledTimes(2);
    second.receive({ type: "event", room: "project:p1", event: { type: "comments.created" } });
    expect(onEvent).toHaveBeenCalledTimes(1);
    stop();
  });

  it("does not reconnect after a close that says it cannot help (signed out)", async () => {
    const { realtime } = await import("./realtime.ts");
    const stop = realtime().subscribe("p1", { onEvent() {}, onResync() {} });
    FakeSocket.instances[0]!.open();
    FakeSocket.instances[0]!.serverClose(4401);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(FakeSocket.instances).toHaveLength(1);
    stop();
  });
});
