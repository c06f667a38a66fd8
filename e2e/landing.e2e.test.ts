/**
 * Issue #34: a visitor's first load of `/` is the sign-in screen and nothing of the signed-in app — no
 * app layout (tour, intro, setup, feedback), no project page, no PDF viewer, no upgrade dialog.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E } from "./harness.ts";
import { shot } from "./helpers.ts";

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});

afterAll(() => e2e.close());

describe("the signed-out landing page", () => {
  it("shows the sign-in form and loads none of the signed-in app's chunks", async () => {
    const page = await e2e.newPage();
    const loaded: string[] = [];
    page.on("request", (request) => {
      const path = new URL(request.url()).pathname;
      if (/\.(js|css)$/.test(path)) loaded.push(path);
    });
    await page.goto("/");
    await expect.poll(() => page.getByRole("heading", { name: "Sign in to Redline" }).isVisible()).toBe(true);
    await page.getByLabel("Email", { exact: true }).waitFor();
    await page.waitForLoadState("networkidle");
    await shot(page, "landing");
    expect(loaded.some((path) => path.includes("landing-page"))).toBe(true);
    for (const chunk of [
      "app-layout",
      "project-page",
      "pdf",
      "feature-tour",
      "feedback-dialog",
      "upgrade-prompt",
    ])
      expect(loaded.filter((path) => path.includes(chunk))).toEqual([]);
  });
});
