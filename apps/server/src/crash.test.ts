import { describe, expect, it } from "vitest";
import { crashRound } from "./testing/crash-round.ts";
import { drivers } from "./testing/test-db.ts";

describe.each(drivers())("kill -9 mid-stream (%s)", (driver) => {
  it("keeps every acknowledged write, leaves no torn file, and the collector leaves no orphan", async () => {
    const result = await crashRound({ driver, writeMs: 2500 });
    expect(result.acknowledged).toBeGreaterThan(10);
    expect(result.lost).toEqual([]);
    expect(result.tornFiles).toEqual([]);
    expect(result.orphanFiles).toEqual([]);
  }, 240_000); // a server process starts twice: a minute each on a loaded machine
});
