import { describe, expect, it } from "vitest";
import { isProduct, productForHost } from "./products.ts";

describe("productForHost (SPEC §1: the bug-tracking prefix, with or without a hyphen)", () => {
  it.each([
    ["bugs.example.com", "bugs", "browse"],
    ["bugs-example.com", "bugs", "browse"],
    ["BUGS.Example.com", "bugs", "browse"],
    ["bugs.localhost", "bugs", "browse"],
    ["tracker.example.com", "tracker", "browse"],
    ["example.com", "bugs", null],
    ["bugsy.example.com", "bugs", null],
    ["app.bugs.example.com", "bugs", null],
    ["localhost", "bugs", null],
    ["bugs.example.com", "", null],
  ])("%s with prefix %j → %s", (host, prefix, product) => {
    expect(productForHost(host, prefix)).toBe(product);
  });

  it("knows the two products and nothing else", () => {
    expect(isProduct("web")).toBe(true);
    expect(isProduct("browse")).toBe(true);
    expect(isProduct("video")).toBe(false);
    expect(isProduct(null)).toBe(false);
  });
});
