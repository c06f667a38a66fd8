import type { Comment } from "@redline/shared";
import { describe, expect, it } from "vitest";
import { drawnPins } from "./use-overlay-pins.ts";

const comments = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `c${i}` }) as Comment);
const ids = (list: Comment[]) => list.map((comment) => comment.id);

describe("drawnPins", () => {
  it("draws every pin up to the overlay's limit", () => {
    expect(ids(drawnPins(comments(3), null, 3))).toEqual(["c0", "c1", "c2"]);
    expect(ids(drawnPins(comments(3), "c1", 3))).toEqual(["c0", "c1", "c2"]);
  });

  it("past the limit draws the first ones, never refusing them all", () => {
    expect(ids(drawnPins(comments(5), null, 3))).toEqual(["c0", "c1", "c2"]);
    expect(ids(drawnPins(comments(5), "c2", 3))).toEqual(["c0", "c1", "c2"]);
  });

  it("keeps the selected comment's pin when it lies beyond the limit", () => {
    expect(ids(drawnPins(comments(5), "c4", 3))).toEqual(["c0", "c1", "c4"]);
  });

  it("ignores a selection that is not among the pins (filtered out or gone)", () => {
    expect(ids(drawnPins(comments(5), "elsewhere", 3))).toEqual(["c0", "c1", "c2"]);
  });
});
