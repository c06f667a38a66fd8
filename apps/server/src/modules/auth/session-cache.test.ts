import { describe, expect, it } from "vitest";
import type { UserRow } from "../../db/schema/index.ts";
import { SessionCache } from "./session-cache.ts";

const user = (id: string) => ({ id }) as UserRow;
const held = (id: string, freshUntil = Date.now() + 60_000) => ({
  user: user(id),
  sessionCreatedAt: new Date(),
  freshUntil,
});

describe("the in-process session cache", () => {
  it("holds a session until its user is forgotten, and forgets only that user", () => {
    const cache = new SessionCache();
    cache.set("t1", held("ada"), cache.begin());
    cache.set("t2", held("ada"), cache.begin());
    cache.set("t3", held("bob"), cache.begin());
    expect(cache.get("t1")?.user.id).toBe("ada");
    cache.forgetUser("ada");
    expect([cache.get("t1"), cache.get("t2")]).toEqual([undefined, undefined]);
    expect(cache.get("t3")?.user.id).toBe("bob");
  });

  it("drops a fill that began before a change to its user (the read may predate the change)", () => {
    const cache = new SessionCache();
    const began = cache.begin();
    cache.forgetUser("ada"); // a sign-out commits while the session row is being read
    cache.set("t1", held("ada"), began);
    expect(cache.get("t1")).toBeUndefined();
    // Another user's fill is unaffected; a fill begun after the change is kept.
    cache.set("t2", held("bob"), began);
    cache.set("t3", held("ada"), cache.begin());
    expect(cache.get("t2")?.user.id).toBe("bob");
    expect(cache.get("t3")?.user.id).toBe("ada");
  });

  it("caches nothing while the change channel is lost, and starts empty when it is back", () => {
    const cache = new SessionCache();
    cache.set("t1", held("ada"), cache.begin());
    cache.setListening(false);
    expect(cache.get("t1")).toBeUndefined();
    cache.set("t2", held("bob"), cache.begin());
    expect(cache.get("t2")).toBeUndefined();
    cache.setListening(true);
    cache.set("t2", held("bob"), cache.begin());
    expect(cache.get("t2")?.user.id).toBe("bob");
  });

  it("lets a session go when it is due for expiry or its sliding refresh", () => {
    const cache = new SessionCache();
    const now = Date.now();
    cache.set("t1", held("ada", now + 1000), cache.begin());
    expect(cache.get("t1", now)).toBeDefined();
    expect(cache.get("t1", now + 1000)).toBeUndefined();
  });
});
