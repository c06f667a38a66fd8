import type { FrameAnchor } from "@redline/shared";
import { describe, expect, it } from "vitest";
import { placementOf, stageFor } from "./index.ts";

const anchor = { v: 1, querySelector: "main > h1", fingerprint: { tag: "h1" } } as unknown as FrameAnchor;

describe("stage adapters", () => {
  it("give each kind of content its adapter: a page's elements are found again, pictures' points are not", () => {
    expect(stageFor("snapshot").refinds).toBe(true);
    for (const kind of ["image", "screenshot", "pdf"] as const) expect(stageFor(kind).refinds).toBe(false);
  });

  it("say what was picked", () => {
    expect(stageFor("snapshot").describe({ kind: "element", anchor, point: { x: 0.5, y: 0.5 } })).toBe(
      "New comment on ‹h1›",
    );
    expect(stageFor("image").describe({ kind: "image-point", point: { x: 0.1, y: 0.2 } })).toBe(
      "New comment on the image",
    );
    expect(stageFor("pdf").describe({ kind: "pdf-point", page: 3, point: { x: 0.1, y: 0.2 } })).toBe(
      "New comment on page 3",
    );
  });

  it("send where a comment points as the comment's fields", () => {
    expect(placementOf({ kind: "element", anchor, point: { x: 0.25, y: 0.75 } })).toEqual({
      anchor,
      dotPosition: { x: 0.25, y: 0.75 },
    });
    expect(placementOf({ kind: "image-point", point: { x: 0.1, y: 0.2 } })).toEqual({
      dotPosition: { x: 0.1, y: 0.2 },
    });
    expect(placementOf({ kind: "pdf-point", page: 2, point: { x: 0.1, y: 0.2 } })).toEqual({
      dotPosition: { x: 0.1, y: 0.2 },
      pdfPage: 2,
    });
  });
});
