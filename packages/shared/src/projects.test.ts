import { describe, expect, it } from "vitest";
import { DEMO_PROJECT_MAX_PAGES } from "./limits.ts";
import {
  accessLabel,
  addPageSchema,
  expiryLabel,
  freePlanTag,
  isPageLikeUrl,
  pageLimitFor,
  pagesLeft,
  partialCaptureText,
  productOf,
  projectExpiresAt,
  updatePageSchema,
  viewerOf,
} from "./projects.ts";

describe("project rules", () => {
  it("labels expiry: 'Expired', minutes under an hour, else hours", () => {
    const now = new Date("2026-01-01T12:00:00Z");
    const at = (ms: number) => new Date(now.getTime() + ms);
    expect(expiryLabel(at(-1), now)).toBe("Expired");
    expect(expiryLabel(at(0), now)).toBe("Expired");
    expect(expiryLabel(at(59 * 60_000), now)).toBe("Expires in 59m");
    expect(expiryLabel(at(90 * 60_000), now)).toBe("Expires in 1h");
    expect(expiryLabel(at(47 * 3_600_000), now)).toBe("Expires in 47h");
  });

  it("expires browse and webapp projects after two days unless the project limit is -1", () => {
    const created = new Date("2026-01-01T00:00:00Z");
    expect(projectExpiresAt("webapp", created, 1)?.toISOString()).toBe("2026-01-03T00:00:00.000Z");
    expect(projectExpiresAt("browse", created, 2)?.toISOString()).toBe("2026-01-03T00:00:00.000Z");
    expect(projectExpiresAt("browse", created, -1)).toBeNull();
    expect(projectExpiresAt("web", created, 1)).toBeNull();
  });

  it("labels access as 'Owner' or '{Access} access'", () => {
    expect(accessLabel("owner")).toBe("Owner");
    expect(accessLabel("edit")).toBe("Edit access");
    expect(accessLabel("comment")).toBe("Comment access");
    expect(accessLabel("view")).toBe("View access");
  });

  it("tags free plans 'Free Plan' until the page limit, then 'Limit reached'", () => {
    expect(freePlanTag(4, 5)).toBe("Free Plan");
    expect(freePlanTag(5, 5)).toBe("Limit reached");
    expect(freePlanTag(50, -1)).toBeNull();
  });

  it("treats a URL as page-like only without query, trailing slash or dotted last segment", () => {
    expect(isPageLikeUrl("https://example.com/pricing")).toBe(true);
    expect(isPageLikeUrl("https://example.com/docs/intro")).toBe(true);
    expect(isPageLikeUrl("https://example.com/pricing?plan=pro")).toBe(false);
    expect(isPageLikeUrl("https://example.com/pricing/")).toBe(false);
    expect(isPageLikeUrl("https://example.com/index.html")).toBe(false);
    expect(isPageLikeUrl("not a url")).toBe(false);
  });

  it("opens the right viewer and product for each type", () => {
    expect([viewerOf("web"), viewerOf("image"), viewerOf("demo"), viewerOf("webapp")]).toEqual([
      "review",
      "review",
      "review",
      "review",
    ]);
    expect([viewerOf("browse"), viewerOf("mobile"), viewerOf("illustration")]).toEqual([
      "board",
      "board",
      "slides",
    ]);
    expect([productOf("browse"), productOf("mobile"), productOf("web")]).toEqual(["browse", "browse", "web"]);
  });

  it("accepts only http(s) page addresses", () => {
    expect(addPageSchema.safeParse({ url: "https://example.com" }).success).toBe(true);
    expect(addPageSchema.safeParse({ url: "javascript:alert(1)" }).success).toBe(false);
    expect(addPageSchema.safeParse({ url: "file:///etc/passwd" }).success).toBe(false);
  });

  it("lets a page update archive or unarchive, and nothing unknown", () => {
    expect(updatePageSchema.parse({ isArchived: true })).toEqual({ isArchived: true });
    expect(updatePageSchema.safeParse({ isArchived: "yes" }).success).toBe(false);
    expect(updatePageSchema.safeParse({ isApproved: true }).success).toBe(false);
  });
});

describe("update all pages", () => {
  const page = {
    url: "https://example.com",
    isApproved: false,
    isArchived: false,
    isDemo: false,
    source: null,
    screenshotSource: null,
  };
  it("updates ordinary URL pages and screenshot-backed image pages only", async () => {
    const { isUpdatablePage } = await import("./projects.ts");
    expect(isUpdatablePage(page)).toBe(true);
    expect(isUpdatablePage({ ...page, isApproved: { uid: "u", date: "d" } })).toBe(false);
    expect(isUpdatablePage({ ...page, isArchived: true })).toBe(false);
    expect(isUpdatablePage({ ...page, isDemo: true })).toBe(false);
    expect(isUpdatablePage({ ...page, source: "extension" })).toBe(false);
    expect(isUpdatablePage({ ...page, url: "image" })).toBe(false);
    expect(isUpdatablePage({ ...page, url: "image", screenshotSource: "https://example.com" })).toBe(true);
  });
});

describe("page limit", () => {
  it("is the demo's fixed cap, else the owner's limit for the product, else 5", () => {
    const limits = { web: { projects: 1, pages: 12 }, browse: { projects: 2, pages: -1 } };
    expect(pageLimitFor("demo", limits)).toBe(DEMO_PROJECT_MAX_PAGES);
    expect(pageLimitFor("web", limits)).toBe(12);
    expect(pageLimitFor("browse", limits)).toBe(-1);
    expect(pageLimitFor("webapp", null)).toBe(5);
  });

  it("leaves what the limit allows beyond the count, never below zero, and null when unlimited", () => {
    expect(pagesLeft(5, 3)).toBe(2);
    expect(pagesLeft(5, 7)).toBe(0);
    expect(pagesLeft(-1, 300)).toBeNull();
  });
});

describe("the note on a partial capture", () => {
  it("says what kept the page busy, in the order given", () => {
    expect(partialCaptureText(["load"])).toBe(
      "Captured while the page was still busy (it had not finished loading): this is what it showed at that moment.",
    );
    expect(partialCaptureText(["load", "network", "timers"])).toBe(
      "Captured while the page was still busy (it had not finished loading, requests were still open and its scripts kept updating it): this is what it showed at that moment.",
    );
    expect(partialCaptureText([])).toContain("(it was still busy)");
  });
});
