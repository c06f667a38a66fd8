import { describe, expect, it } from "vitest";
import { offersExtension, pageUrlVariants } from "./extension.rules.ts";

const live = { type: "webapp" as const, isArchived: false, isPluginDisabled: false, isExpired: false };

describe("offersExtension", () => {
  it("offers live web and web-app projects", () => {
    expect(offersExtension(live)).toBe(true);
    expect(offersExtension({ ...live, type: "web" })).toBe(true);
  });

  it("does not offer other types, archived, expired or extension-disabled projects", () => {
    expect(offersExtension({ ...live, type: "image" })).toBe(false);
    expect(offersExtension({ ...live, type: "illustration" })).toBe(false);
    expect(offersExtension({ ...live, isArchived: true })).toBe(false);
    expect(offersExtension({ ...live, isExpired: true })).toBe(false);
    expect(offersExtension({ ...live, isPluginDisabled: true })).toBe(false);
  });
});

describe("pageUrlVariants", () => {
  it("matches a page with or without its fragment and trailing slash", () => {
    expect(pageUrlVariants("https://app.test/board#top").sort()).toEqual(
      ["https://app.test/board#top", "https://app.test/board", "https://app.test/board/"].sort(),
    );
    expect(pageUrlVariants("https://app.test/a/?q=1").sort()).toEqual(
      ["https://app.test/a/?q=1", "https://app.test/a?q=1"].sort(),
    );
  });

  it("has no variants for what is not a web page", () => {
    expect(pageUrlVariants("chrome://extensions")).toEqual([]);
    expect(pageUrlVariants("not a url")).toEqual([]);
  });
});
