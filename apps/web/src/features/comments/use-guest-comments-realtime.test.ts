import type { Comment } from "@redline/shared";
import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { guestRealtime } from "../../lib/realtime.ts";
import { commentsKey, slideCommentsScope } from "./comment-queries.ts";
import { guestCommentsListener } from "./use-guest-comments-realtime.ts";

const guest = { projectId: "p1", versionId: "v1", guestIdentity: "public" };
const comment = (id: string, createdAt: string, text = id) =>
  ({ id, createdAt, versionId: "v1", thread: [{ comment: text }] }) as unknown as Comment;

function cache() {
  const client = new QueryClient();
  client.setQueryData(commentsKey(guest), [comment("a", "2026-01-01"), comment("c", "2026-01-03")]);
  client.setQueryData(commentsKey({ ...guest, projectId: "p2" }), [comment("x", "2026-01-01")]);
  client.setQueryData(commentsKey({ projectId: "p1", versionId: "v1" }), [comment("m", "2026-01-01")]);
  const ids = (scope = guest) => client.getQueryData<Comment[]>(commentsKey(scope))?.map((c) => c.id);
  const isStale = (scope: Parameters<typeof commentsKey>[0]) =>
    client.getQueryState(commentsKey(scope))?.isInvalidated;
  return { client, ids, isStale, listener: guestCommentsListener(client, "p1", "public") };
}

describe("a link guest's comments from the guest socket", () => {
  it("writes new and changed comments into the guest's list and takes deleted ones out, no request", () => {
    const { listener, ids, client } = cache();
    const base = { projectId: "p1", versionId: "v1" } as const;
    listener.onEvent({
      type: "comments.created",
      ...base,
      commentId: "b",
      comment: comment("b", "2026-01-02"),
    });
    listener.onEvent({
      type: "comments.changed",
      ...base,
      commentId: "a",
      comment: comment("a", "2026-01-01", "resolved"),
    });
    listener.onEvent({ type: "comments.deleted", ...base, commentId: "c" });
    expect(ids()).toEqual(["a", "b"]);
    expect(client.getQueryData<Comment[]>(commentsKey(guest))![0]!.thread[0]!.comment).toBe("resolved");
  });

  it("writes a slide's comment into the deck's list of the link (an illustration project's)", () => {
    const { listener, ids, client } = cache();
    const deck = slideCommentsScope("p1", "public");
    client.setQueryData(commentsKey(deck), [comment("s1c", "2026-01-01")]);
    listener.onEvent({
      type: "comments.created",
      projectId: "p1",
      versionId: null,
      slideId: "s1",
      commentId: "s2c",
      comment: comment("s2c", "2026-01-02"),
    });
    expect(client.getQueryData<Comment[]>(commentsKey(deck))?.map((c) => c.id)).toEqual(["s1c", "s2c"]);
    // Nothing lands in a page's list.
    expect(ids()).toEqual(["a", "c"]);
  });

  it("ignores another project's events and what is not a comment", () => {
    const { listener, ids, isStale } = cache();
    listener.onEvent({
      type: "comments.created",
      projectId: "p2",
      versionId: "v1",
      commentId: "z",
      comment: comment("z", "2026-01-09"),
    });
    listener.onEvent({ type: "conversations.read", conversationId: "k" });
    expect(ids()).toEqual(["a", "c"]);
    expect(isStale(guest)).toBe(false);
  });

  it("refetches a list whose event came without its comment, and all the link's lists on a resync", () => {
    const { listener, isStale } = cache();
    listener.onEvent({ type: "comments.changed", projectId: "p1", versionId: "v1", commentId: "a" });
    expect(isStale(guest)).toBe(true);
    const other = cache();
    other.listener.onResync();
    expect(other.isStale(guest)).toBe(true);
    // Another project's link and a member's list of the same version are left alone.
    expect(other.isStale({ ...guest, projectId: "p2" })).toBe(false);
    expect(other.isStale({ projectId: "p1", versionId: "v1" })).toBe(false);
  });
});

describe("the guest socket's comments topic", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("joins with topic comments (rejoining after a reconnect) and hands events and resyncs to the listener", () => {
    const sockets: FakeSocket[] = [];
    class FakeSocket {
      static OPEN = 1;
      readyState = 0;
      sent: unknown[] = [];
      onopen: (() => void) | null = null;
      onmessage: ((message: { data: string }) => void) | null = null;
      onclose: ((event: { code: number }) => void) | null = null;
      constructor(readonly url: URL) {
        sockets.push(this);
      }
      send(data: string) {
        this.sent.push(JSON.parse(data));
      }
      close() {}
      open() {
        this.readyState = 1;
        this.onopen?.();
      }
      receive(message: unknown) {
        this.onmessage?.({ data: JSON.stringify(message) });
      }
    }
    vi.stubGlobal("WebSocket", FakeSocket);
    const onEvent = vi.fn();
    const onResync = vi.fn();
    const conversation = { onEvent: vi.fn(), onResync: vi.fn() };
    const stop = guestRealtime().subscribeGuest("p1", "k".repeat(40), { onEvent, onResync }, "comments");
    const stopConversation = guestRealtime().subscribeGuest("p1", "k".repeat(40), conversation);
    const socket = sockets[0]!;
    expect(socket.url.search).toBe("?guest");
    socket.open();
    expect(socket.sent).toEqual([
      { type: "guest.join", projectId: "p1", key: "k".repeat(40), topic: "comments" },
      { type: "guest.join", projectId: "p1", key: "k".repeat(40) },
    ]);
    // Each topic's confirmation resyncs only its own listeners.
    socket.receive({ type: "guest.joined", projectId: "p1", topic: "comments" });
    expect(onResync).toHaveBeenCalledTimes(1);
    expect(conversation.onResync).not.toHaveBeenCalled();
    const event = { type: "comments.deleted", projectId: "p1", versionId: "v1", commentId: "a" };
    socket.receive({ type: "event", room: "guest:p1", event });
    expect(onEvent).toHaveBeenCalledWith(event);
    socket.receive({ type: "guest.left", projectId: "p1", topic: "comments" });
    expect(onResync).toHaveBeenCalledTimes(2);
    socket.sent = [];
    stop();
    expect(socket.sent).toEqual([{ type: "guest.leave", projectId: "p1", topic: "comments" }]);
    stopConversation();
  });
});
