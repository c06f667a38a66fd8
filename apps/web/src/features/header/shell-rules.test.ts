import { describe, expect, it } from "vitest";
import { backTarget, isHeaderTransparent } from "./shell-rules.ts";

describe("the header's back button (SPEC §2)", () => {
  it("goes to /upgrade from the payment summary", () => {
    expect(backTarget("/upgrade/confirm/pro")).toEqual({ to: "/upgrade", label: "Back to plans" });
  });

  it("goes to the project from a project subpage", () => {
    for (const path of ["/project/p1/archived", "/project/p1/page1", "/project/p1/page1/v1/comment"])
      expect(backTarget(path)?.to).toBe("/project/p1");
  });

  it("goes to /projects otherwise, and is not shown on the project lists", () => {
    for (const path of ["/project/p1", "/team", "/profile", "/upgrade", "/billing"])
      expect(backTarget(path)?.to).toBe("/projects");
    for (const path of ["/projects", "/projects/archived", "/projects/"]) expect(backTarget(path)).toBeNull();
  });
});

describe("the transparent header (SPEC §2, §9: 100 px)", () => {
  it("turns transparent on /projects from 100 px of scrolling, nowhere else", () => {
    expect(isHeaderTransparent("/projects", 99)).toBe(false);
    expect(isHeaderTransparent("/projects", 100)).toBe(true);
    expect(isHeaderTransparent("/team", 500)).toBe(false);
    expect(isHeaderTransparent("/projects/archived", 500)).toBe(false);
  });
});
