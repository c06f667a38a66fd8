import type { FrameAnchor, Slide } from "@redline/shared";
import { describe, expect, it } from "vitest";
import { stageFor } from "./index.ts";
import { describeSlideTarget, findOnSlide, movedOnSlide, pickOnSlide } from "./slide-target.ts";

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

  it("on a slide: a click is a target on the slide or its object, found again where the object now is", () => {
    const slide = {
      id: "s1",
      objects: { logo: { x: 100, y: 50, width: 200, height: 100, rotation: 0 } },
    } as unknown as Slide;
    const onObject = pickOnSlide(slide, { x: 150, y: 100 }, "logo");
    expect(onObject).toEqual({ kind: "slide", slideId: "s1", objectId: "logo", point: { x: 0.25, y: 0.5 } });
    expect(describeSlideTarget(onObject)).toBe("Pinned to the selected object.");
    const onSlide = pickOnSlide(slide, { x: 500, y: 350 }, null);
    expect(onSlide).toEqual({ kind: "slide", slideId: "s1", point: { x: 0.5, y: 0.5 } });
    expect(describeSlideTarget(onSlide)).toBe("Pinned to a point of the slide.");

    // The object moved: its pin follows it; dragged, the pin stays on the object; the object gone, no pin.
    const moved = { ...slide, objects: { logo: { x: 300, y: 250, width: 200, height: 100, rotation: 0 } } };
    expect(findOnSlide(onObject, moved as unknown as Slide)).toEqual({ x: 350, y: 300 });
    expect(movedOnSlide(onObject, moved as unknown as Slide, { x: 400, y: 250 })).toEqual({
      ...onObject,
      point: { x: 0.5, y: 0 },
    });
    expect(findOnSlide(onObject, { objects: {} } as unknown as Slide)).toBeNull();
  });
});
