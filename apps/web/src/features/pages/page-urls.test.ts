import { describe, expect, it } from "vitest";
import { normalizeUrl, urlsFromPaths } from "./page-urls.ts";

describe("normalizeUrl", () => {
  it.each([
    ["example.com/pricing", "https://example.com/pricing"],
    ["  http://localhost:8080 ", "http://localhost:8080/"],
  ])("reads %s as %s", (input, expected) => expect(normalizeUrl(input)).toBe(expected));

  it.each(["", "   ", "ftp://example.com/", "javascript:alert(1)", "https://"])("refuses %s", (input) =>
    expect(normalizeUrl(input)).toBeNull(),
  );
});

describe("urlsFromPaths", () => {
  it("turns paths into de-duplicated URLs of the base's site only", () => {
    expect(urlsFromPaths("example.com", "/\n/pricing\npricing\n\nhttps://other.example/x\n/about")).toEqual([
      "https://example.com/",
      "https://example.com/pricing",
      "https://example.com/about",
    ]);
  });
});
