import { describe, expect, it } from "vitest";
import { isHashedClass, isRandomLooking, isStateClass, isUnstableId, stableClasses } from "./stability.ts";

describe("isHashedClass", () => {
  it.each([
    "css-1x2y3z",
    "css-1x2y3z-Button",
    "sc-bdVaJa",
    "kVXyZq",
    "bHwkBz",
    "jsx-123456",
    "_3xYz9",
    "Button_primary__3xYz9",
    "Button-module__primary___a1b2c",
    "makeStyles-root-12",
    "svelte-1abc2de",
    "e1n8nfou0",
    "a1b2c3d4",
    "card-4f9a2c81",
  ])("rejects generated %s", (name) => {
    expect(isHashedClass(name)).toBe(true);
  });

  it.each([
    "btn",
    "btn-primary",
    "card__title",
    "card--featured",
    "nav-link",
    "col-md-6",
    "mt-4",
    "h-100",
    "grid-cols-12",
    "md:flex",
    "w-[327px]",
    "bg-[#1da1f2]",
    "ProductCard",
    "navItem",
    "MuiButton-root",
    "x86-64",
    "v2",
  ])("keeps stable %s", (name) => {
    expect(isHashedClass(name)).toBe(false);
  });

  it("separates state classes and filters both", () => {
    expect(isStateClass("is-active")).toBe(true);
    expect(isStateClass("active")).toBe(true);
    expect(isStateClass("card")).toBe(false);
    expect(stableClasses(["card", "css-1x2y3z", "active", "featured"])).toEqual(["card", "featured"]);
  });

  it("judges segments", () => {
    expect(isRandomLooking("1x2y3z")).toBe(true);
    expect(isRandomLooking("title")).toBe(false);
    expect(isRandomLooking("iPhone")).toBe(false);
  });
});

describe("isUnstableId", () => {
  it.each([
    ":r1:",
    ":R2dm:",
    "«r1»",
    "ember123",
    "8f14e45f-ceea-4f6a-9b1b-6e2c3a4b5c6d",
    "radix-:r3:-content",
    "headlessui-menu-button-7",
    "mui-12345",
    "j_idt42",
    "ext-gen1234",
    "input-38291",
    "1section",
    "a8x9k2q7",
  ])("rejects generated %s", (id) => {
    expect(isUnstableId(id)).toBe(true);
  });

  it.each(["main", "pricing", "config-file", "workspace-name", "step-2", "__next", "search_input", "nav"])(
    "keeps %s",
    (id) => {
      expect(isUnstableId(id)).toBe(false);
    },
  );
});
