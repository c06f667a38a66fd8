/** The region's geometry (issue #31): from the drag in CSS pixels to the capture's device pixels. */
import { describe, expect, it } from "vitest";
import { rectBetween, regionFileName, regionInPixels } from "./region";

describe("a region of the tab", () => {
  it("is the rectangle between the drag's ends, whichever way it was dragged", () => {
    expect(rectBetween({ x: 300, y: 250 }, { x: 100, y: 100 })).toEqual({
      x: 100,
      y: 100,
      width: 200,
      height: 150,
    });
  });

  it("is scaled by the device pixel ratio onto the capture", () => {
    const rect = { x: 100, y: 100, width: 200, height: 150 };
    expect(regionInPixels(rect, 1280, { width: 1280, height: 800 })).toEqual(rect);
    // A 2× screen: the capture of a 1280-wide viewport is 2560 pixels wide.
    expect(regionInPixels(rect, 1280, { width: 2560, height: 1600 })).toEqual({
      x: 200,
      y: 200,
      width: 400,
      height: 300,
    });
    // 1.5×: fractions are rounded outward, so the region is never cut short.
    expect(regionInPixels({ x: 11, y: 11, width: 11, height: 11 }, 100, { width: 150, height: 150 })).toEqual(
      { x: 16, y: 16, width: 17, height: 17 },
    );
  });

  it("stays inside the capture", () => {
    expect(
      regionInPixels({ x: 1200, y: 700, width: 300, height: 300 }, 1280, { width: 1280, height: 800 }),
    ).toEqual({ x: 1200, y: 700, width: 80, height: 100 });
  });

  it("names the image page after the tab", () => {
    expect(regionFileName("Billing / invoices")).toBe("Billing invoices — region.png");
    expect(regionFileName("  ")).toBe("Region — region.png");
  });
});
