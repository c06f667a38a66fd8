/**
 * A page added by URL, followed on the project page while it is captured (issue #36 item 19): the
 * add-page answer and the capture's progress events carry the page as the project lists it, so the page
 * goes from capturing to done — its stage, then its captured title and thumbnail — with no read of the
 * project after the page has loaded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E } from "./harness.ts";
import { newProject, type Site, serveSite, shot, signedIn } from "./helpers.ts";

let e2e: E2E;
let site: Site;

beforeAll(async () => {
  [e2e, site] = await Promise.all([
    startE2E({ config: { captureWorker: true } }),
    // Answers after a while, so the capture is seen under way.
    serveSite((_request, response) => {
      setTimeout(() => {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        response.end(
          "<!doctype html><html><head><title>Fixture launch</title></head>" +
            '<body style="margin:0;font-family:sans-serif"><h1 style="padding:24px;background:#1f6feb;color:white">' +
            'Launch day</h1><p style="padding:24px">Everything ships today.</p></body></html>',
        );
      }, 1500);
    }),
  ]);
}, 120_000);
afterAll(async () => {
  await e2e?.close();
  await site?.close();
});

describe("capture progress", () => {
  it("follows a page from capturing to done on the project page, reading the project no more", {
    timeout: 90_000,
  }, async () => {
    const { page, api } = await signedIn(e2e, "progress");
    const projectId = await newProject(api, "Launch");
    let projectReads = 0;
    page.on("request", (request) => {
      if (request.method() === "GET" && new URL(request.url()).pathname === `/api/projects/${projectId}`)
        projectReads += 1;
    });
    await page.goto(`/project/${projectId}`);
    // Loaded, and its room joined (a join reads the project again: events before it were not heard).
    await page.waitForLoadState("networkidle");
    expect(projectReads).toBeGreaterThanOrEqual(1);
    const loadReads = projectReads;
    await page.getByLabel("Page URL").fill(`${site.url}/launch`);
    await page.getByRole("button", { name: "Add page", exact: true }).click();

    const pages = page.getByRole("list", { name: "Pages of this project" });
    await pages.getByText("Loading page").waitFor({ timeout: 30_000 });
    await shot(page, "capture-progress-under-way");
    // Done: the app opens the new page's review, its captured title and thumbnail listed with no reload.
    await page.waitForURL((url) => url.pathname.endsWith("/comment"), { timeout: 60_000 });
    await page.getByRole("button", { name: "Pages", exact: true }).click();
    const item = pages.getByRole("listitem").filter({ hasText: "Fixture launch" });
    await item.getByText("Ready").waitFor();
    await expect.poll(() => item.locator("img").getAttribute("src")).toMatch(/^\/files\/thumbnails\//);
    await shot(page, "capture-progress-done");
    expect(projectReads - loadReads, "GET /api/projects/{id} while the page was added and captured").toBe(0);
  });
});
