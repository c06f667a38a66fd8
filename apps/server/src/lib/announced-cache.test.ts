import { describe, expect, it } from "vitest";
import { AnnouncedCache } from "./announced-cache.ts";

const tags = ["project:p1", "user:u1"];

describe("a cache forgotten by announcements", () => {
  it("keeps a read and serves it until an announcement names one of its tags", () => {
    const cache = new AnnouncedCache<string>();
    cache.keep("a", "answer", tags, cache.begin());
    cache.keep("b", "other", ["project:p2"], cache.begin());
    expect(cache.get("a")).toBe("answer");
    cache.heard(["user:u1"]);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("b")).toBe("other");
    cache.forget("project:p2");
    expect(cache.get("b")).toBeUndefined();
    expect(cache.count).toBe(0);
  });

  it("does not keep a read that began before a forgetting that concerns it", () => {
    const cache = new AnnouncedCache<string>();
    const began = cache.begin();
    cache.heard(["project:p1"]);
    expect(cache.keep("a", "stale", tags, began)).toBe(false);
    // One that concerns other tags does not matter.
    const again = cache.begin();
    cache.heard(["project:p9"]);
    expect(cache.keep("a", "fresh", tags, again)).toBe(true);
    expect(cache.get("a")).toBe("fresh");
    // Everything forgotten: nothing begun before is kept.
    const before = cache.begin();
    cache.clear();
    expect(cache.keep("c", "stale", ["user:u2"], before)).toBe(false);
  });

  it("holds the tags of this process's announcement until it is heard back, or given up on", () => {
    const cache = new AnnouncedCache<string>({ pendingMs: 1000 });
    cache.keep("a", "answer", tags, cache.begin(), Number.POSITIVE_INFINITY, 0);
    cache.keep("b", "other", ["project:p2"], cache.begin(), Number.POSITIVE_INFINITY, 0);
    cache.sent(["project:p1"], "w1", 0);
    expect(cache.get("a", 10)).toBeUndefined();
    // Read while the write's transaction may still be open: answered from the database, not kept.
    expect(cache.keep("a", "maybe stale", tags, cache.begin(), Number.POSITIVE_INFINITY, 10)).toBe(false);
    expect(cache.get("b", 10)).toBe("other");
    cache.heard(["project:p1"], "w1");
    expect(cache.keep("a", "after", tags, cache.begin(), Number.POSITIVE_INFINITY, 20)).toBe(true);
    expect(cache.get("a", 20)).toBe("after");
    // A write never heard back (rolled back) holds its tags for `pendingMs` only.
    cache.sent(["user:u1"], "w2", 100);
    expect(cache.keep("a", "x", tags, cache.begin(), Number.POSITIVE_INFINITY, 500)).toBe(false);
    expect(cache.keep("a", "y", tags, cache.begin(), Number.POSITIVE_INFINITY, 1200)).toBe(true);
    expect(cache.get("a", 1200)).toBe("y");
  });

  it("keeps nothing while announcements may be missed, or while another channel is not ready", () => {
    let ready = true;
    const cache = new AnnouncedCache<string>({ isReady: () => ready });
    cache.keep("a", "answer", tags, cache.begin());
    cache.setListening(false);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.keep("a", "answer", tags, cache.begin())).toBe(false);
    cache.setListening(true);
    ready = false;
    expect(cache.keep("a", "answer", tags, cache.begin())).toBe(false);
    ready = true;
    expect(cache.keep("a", "answer", tags, cache.begin())).toBe(true);
  });

  it("ends an entry at its own time (a project that expires)", () => {
    const cache = new AnnouncedCache<string>();
    expect(cache.keep("a", "answer", tags, cache.begin(), 1000, 0)).toBe(true);
    expect(cache.get("a", 999)).toBe("answer");
    expect(cache.get("a", 1000)).toBeUndefined();
    expect(cache.keep("b", "past", tags, cache.begin(), 1000, 1000)).toBe(false);
  });

  it("stays within its bounds, least recently read first", () => {
    const cache = new AnnouncedCache<string>({ maxEntries: 2, maxSize: 10, sizeOf: (v) => v.length });
    cache.keep("a", "aaa", ["t:a"], cache.begin());
    cache.keep("b", "bbb", ["t:b"], cache.begin());
    cache.get("a");
    cache.keep("c", "ccc", ["t:c"], cache.begin());
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe("aaa");
    expect(cache.keep("d", "dddddddd", ["t:d"], cache.begin())).toBe(true);
    expect(cache.count).toBe(1);
    expect(cache.keep("e", "e".repeat(11), ["t:e"], cache.begin())).toBe(false);
    // A forgotten tag's index was cleaned with its entries: forgetting again drops nothing else.
    cache.forget("t:a");
    expect(cache.get("d")).toBe("dddddddd");
  });
});
