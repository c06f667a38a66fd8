import { describe, expect, it } from "vitest";
import {
  continuePathFor,
  DEFAULT_AFTER_SIGN_IN,
  safeGoto,
  signInPathFor,
  signUpPathFor,
} from "./safe-redirect.ts";

describe("safeGoto", () => {
  it.each([
    ["/profile", "/profile"],
    ["/project/abc?view=grid#top", "/project/abc?view=grid#top"],
    ["/a/../profile", "/profile"],
  ])("follows the same-origin path %s", (value, expected) => {
    expect(safeGoto(value)).toBe(expected);
  });

  it.each([
    null,
    "",
    "https://evil.example/",
    "//evil.example/path",
    "/\\evil.example",
    "javascript:alert(1)",
    "profile",
  ])("refuses %s and goes to the default", (value) => {
    expect(safeGoto(value)).toBe(DEFAULT_AFTER_SIGN_IN);
  });

  it("signs in with the asked-for location kept in goto", () => {
    const path = signInPathFor("/profile?tab=x");
    expect(safeGoto(new URLSearchParams(path.slice(2)).get("goto"))).toBe("/profile?tab=x");
  });

  it("carries a goto worth keeping through sign-up, and only a safe one", () => {
    expect(continuePathFor("/team/t1")).toBe("/team/t1");
    expect(signUpPathFor("/team/t1")).toBe("/signup?goto=%2Fteam%2Ft1");
    for (const value of [null, "", "/projects", "https://evil.example/team", "//evil.example"]) {
      expect(continuePathFor(value)).toBeNull();
      expect(signUpPathFor(value)).toBe("/signup");
    }
  });
});
