import { describe, expect, it } from "vitest";
import { isPreviewSize, PREVIEW_SIZES, previewWidth } from "./preview-width.ts";

describe("preview width table (SPEC §9)", () => {
  it("maps 10, 15, 20, 25 to 365, 490, 615, 740 px", () => {
    expect(PREVIEW_SIZES.map((size) => previewWidth(size, false))).toEqual([365, 490, 615, 740]);
  });

  it("falls back to 240 px for any other value", () => {
    for (const size of [0, 5, 12, 30, -10, 10.5, Number.NaN])
      expect(previewWidth(size, false), `${size}`).toBe(240);
  });

  it("scales by 10/12 in compact mode, rounded to whole pixels", () => {
    expect(PREVIEW_SIZES.map((size) => previewWidth(size, true))).toEqual([304, 408, 513, 617]);
    expect(previewWidth(7, true)).toBe(200);
  });

  it("recognises only the four steps", () => {
    expect(isPreviewSize(15)).toBe(true);
    expect(isPreviewSize("15")).toBe(false);
    expect(isPreviewSize(16)).toBe(false);
  });
});
