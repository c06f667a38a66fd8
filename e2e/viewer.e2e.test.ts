/**
 * Live pages in the viewer, in a real browser against the real app and its capture worker: adding a page
 * by URL with visible progress, the snapshot at three device widths, several pages of one site,
 * re-capturing and the versions panel, and the sandbox that keeps a captured page away from the app.
 * A small fixture site is served from the test itself.
 */

import http from "node:http";
import type { AddressInfo } from "node:net";
import { MESSAGES, PROJECT_MESSAGES, pageAddedMessage } from "@redline/shared";
import type { Frame, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E } from "./harness.ts";
import { newProject, shot, signedIn } from "./helpers.ts";

let e2e: E2E;
let site: { url: string; close(): Promise<void> };

/** A tiny site: a heading, a stylesheet, an image, and a layout that turns into a column below 600 px. */
async function startSite() {
  const noise = Buffer.from(Array.from({ length: 64 * 64 * 3 }, (_, i) => (i * 7919) % 251));
  const logo = await sharp(noise, { raw: { width: 64, height: 64, channels: 3 } })
    .png()
    .toBuffer();
  const css = `
    body { margin: 0; font-family: sans-serif; }
    header { padding: 24px; background: rgb(24, 24, 27); color: white; }
    h1 { margin: 0; font-size: 40px; }
    .columns { display: flex; flex-direction: row; gap: 16px; padding: 24px; }
    .columns > div { flex: 1; min-height: 120px; padding: 16px; background: rgb(241, 241, 243); }
    @media (max-width: 600px) {
      h1 { font-size: 24px; }
      .columns { flex-direction: column; }
    }`;
  const html = (title: string) =>
    `<!doctype html><html><head><meta name="viewport" content="width=device-width"><title>${title}</title>` +
    `<link rel="stylesheet" href="/style.css"></head><body><header><h1>${title}</h1></header>` +
    `<div class="columns"><div><img src="/logo.png" width="64" height="64" alt="Logo"><p>First column</p></div>` +
    `<div><p>Second column</p></div><div><p>Third column</p></div></div>` +
    // Runs once on the live page during the capture; in the viewer it must not run again.
    `<script>document.body.dataset.runs = String(Number(document.body.dataset.runs || 0) + 1)</script>` +
    `</body></html>`;
  const server = http.createServer((request, response) => {
    if (request.url === "/style.css") response.writeHead(200, { "content-type": "text/css" }).end(css);
    else if (request.url === "/logo.png") response.writeHead(200, { "content-type": "image/png" }).end(logo);
    else if (request.url === "/")
      response.writeHead(200, { "content-type": "text/html" }).end(html("Fixture home"));
    else if (request.url === "/pricing")
      response.writeHead(200, { "content-type": "text/html" }).end(html("Fixture pricing"));
    else if (request.url === "/broken") request.socket.destroy();
    else if (request.url === "/held-open.png") {
      // never answers: the busy page's load event never fires
    } else if (request.url === "/busy")
      response
        .writeHead(200, { "content-type": "text/html" })
        .end(
          html("Fixture busy").replace(
            "</body>",
            '<img src="/held-open.png" width="20" height="20" alt=""></body>',
          ),
        );
    else if (request.url === "/team")
      response.writeHead(200, { "content-type": "text/html" }).end(html("Fixture team"));
    else response.writeHead(404, { "content-type": "text/plain" }).end("Not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

async function snapshotFrame(page: Page): Promise<Frame> {
  const iframe = page.locator('iframe[title="Page snapshot"]');
  await iframe.waitFor();
  const frame = await (await iframe.elementHandle())!.contentFrame();
  if (!frame) throw new Error("the snapshot iframe has no frame");
  return frame;
}

/** The layout width inside the frame and how the fixture's columns flow there. */
function frameLayout(frame: Frame) {
  return frame.evaluate(() => ({
    width: document.documentElement.clientWidth,
    direction: getComputedStyle(document.querySelector(".columns")!).flexDirection,
  }));
}

async function chooseDevice(page: Page, frame: Frame, label: string, width: number): Promise<void> {
  await page.getByRole("button", { name: label, exact: true }).click();
  await expect
    .poll(() => page.getByRole("button", { name: label, exact: true }).getAttribute("aria-pressed"))
    .toBe("true");
  await frame.waitForFunction((expected) => document.documentElement.clientWidth === expected, width);
}

beforeAll(async () => {
  [e2e, site] = await Promise.all([startE2E({ config: { captureWorker: true } }), startSite()]);
});

afterAll(async () => {
  await e2e.close();
  await site.close();
});

describe("pages by URL", () => {
  // Three captures by the real worker: a longer budget than the default under a loaded CI machine.
  it("creates a project, adds a page by URL with visible progress, and re-flows the snapshot per device", {
    timeout: 120_000,
  }, async () => {
    const { page } = await signedIn(e2e, "capture");
    const joinedRooms = new Set<string>();
    page.on("websocket", (socket) =>
      socket.on("framereceived", ({ payload }) => {
        const message = JSON.parse(String(payload)) as { type: string; projectId?: string };
        if (message.type === "joined" && message.projectId) joinedRooms.add(message.projectId);
      }),
    );
    await page.getByRole("heading", { name: "No projects yet" }).waitFor();
    await shot(page, "01-projects-empty");

    await page.getByRole("button", { name: "New project" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New project" });
    await dialog.getByLabel("Project title").fill("Fixture site");
    await dialog.getByRole("radio", { name: /Website/ }).check();
    await shot(page, "01b-add-project-modal");
    await dialog.getByRole("button", { name: "Create project" }).click();
    await page.getByText(PROJECT_MESSAGES.created, { exact: true }).waitFor();
    await page.waitForURL((url) => /^\/project\/[^/]+$/.test(url.pathname));
    await expect.poll(() => page.title()).toBe("Fixture site | Redline");
    await page.getByText("No pages yet").first().waitFor();

    // The capture's progress reaches the page through the project's realtime room (joined once the
    // project is open): no request for the version while it runs.
    await expect.poll(() => joinedRooms.size, { timeout: 10_000 }).toBe(1);
    let versionRequests = 0;
    page.on("request", (request) => {
      if (request.method() === "GET" && /^\/api\/versions\/[^/]+$/.test(new URL(request.url()).pathname))
        versionRequests++;
    });
    await page.getByLabel("Page URL").fill(`${site.url}/`);
    await page.getByRole("button", { name: "Add page", exact: true }).click();
    await page.getByRole("progressbar", { name: "Adding page" }).waitFor();
    await page.getByText(PROJECT_MESSAGES.fetchingPage, { exact: true }).waitFor();
    await shot(page, "02-adding-page-progress");

    await page.getByText(pageAddedMessage(1, 1), { exact: true }).waitFor({ timeout: 30_000 });
    expect(versionRequests).toBe(0);
    await page.waitForURL((url) => url.pathname.endsWith("/comment"));
    const frame = await snapshotFrame(page);
    await frame.getByRole("heading", { name: "Fixture home" }).waitFor();
    await page.getByRole("heading", { name: "Fixture home", level: 1 }).waitFor();

    expect(await frameLayout(frame)).toEqual({ width: 1280, direction: "row" });
    await shot(page, "03-viewer-desktop");
    await chooseDevice(page, frame, "Tablet", 768);
    expect(await frameLayout(frame)).toEqual({ width: 768, direction: "row" });
    expect(await page.locator('iframe[title="Page snapshot"]').evaluate((el) => el.clientWidth)).toBe(768);
    await shot(page, "04-viewer-tablet");
    await chooseDevice(page, frame, "Mobile", 375);
    expect(await frameLayout(frame)).toEqual({ width: 375, direction: "column" });
    await shot(page, "05-viewer-mobile");
    await chooseDevice(page, frame, "Desktop", 1280);

    // Back on the project page, the page is listed with its title from the capture.
    await page.getByRole("link", { name: "Back to project" }).click();
    const pages = page.getByRole("list", { name: "Pages of this project" });
    await pages.getByText("Fixture home").waitFor();
    await pages.getByText("1 version").waitFor();
    await shot(page, "06-project-page");

    // Several pages of the same site through the dropdown, one after the other.
    await page.getByLabel("Page URL").fill(site.url);
    await page.getByRole("button", { name: "More ways to add pages" }).click();
    await page.getByRole("menuitem", { name: "Add several pages from this site" }).click();
    const several = page.getByRole("dialog", { name: "Add several pages" });
    expect(await several.getByLabel("Site address").inputValue()).toBe(site.url);
    await several.getByLabel("Paths, one per line").fill("/pricing\nteam\n/pricing");
    await shot(page, "06b-add-several-modal");
    await several.getByRole("button", { name: "Add 2 pages" }).click();
    await page.getByRole("progressbar", { name: "Adding page 1 of 2" }).waitFor();
    await page.getByText(pageAddedMessage(1, 2), { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByText(pageAddedMessage(2, 2), { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByRole("heading", { name: "Fixture team", level: 1 }).waitFor();
    await page.getByRole("link", { name: "Back to project" }).click();
    await pages.getByText("Fixture pricing").waitFor();
    await expect.poll(() => pages.getByRole("listitem").count()).toBe(3);
  });
});

describe("failed captures", () => {
  it("shows why a capture failed and lets an editor try again", async () => {
    const { page, api } = await signedIn(e2e, "broken");
    const projectId = await newProject(api, "Broken");
    await page.goto(`/project/${projectId}`);
    await page.getByLabel("Page URL").fill(`${site.url}/broken`);
    await page.getByRole("button", { name: "Add page", exact: true }).click();
    const failure = page.getByRole("alert").filter({ hasText: MESSAGES.pageLoadFailed });
    await failure.first().waitFor({ timeout: 30_000 });
    await page.waitForURL((url) => /^\/project\/[^/]+\/[^/]+$/.test(url.pathname));
    const stage = page.getByRole("region", { name: /broken/ });
    await stage.getByText(MESSAGES.pageLoadFailed).waitFor();
    await page.getByRole("list", { name: "Pages of this project" }).getByText("Failed").waitFor();
    await shot(page, "13-capture-failed");

    await stage.getByRole("button", { name: "Try again" }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/comment"));
    await page.getByRole("button", { name: /^Versions: Version 2/ }).waitFor();
    await page.getByRole("main").getByText(MESSAGES.pageLoadFailed).waitFor({ timeout: 30_000 });
  });
});

describe("partial captures", () => {
  it("captures a page that never finishes loading and says so above the snapshot", {
    timeout: 90_000,
  }, async () => {
    const { page, api } = await signedIn(e2e, "busy");
    const projectId = await newProject(api, "Busy");
    await page.goto(`/project/${projectId}`);
    await page.getByLabel("Page URL").fill(`${site.url}/busy`);
    await page.getByRole("button", { name: "Add page", exact: true }).click();
    await page.waitForURL((url) => /^\/project\/[^/]+\/[^/]+/.test(url.pathname));
    const note = page.getByRole("note").filter({ hasText: "Captured while the page was still busy" });
    await note.waitFor({ timeout: 60_000 });
    expect(await note.textContent()).toContain("it had not finished loading");
    const frame = await snapshotFrame(page);
    await frame.getByRole("heading", { name: "Fixture busy" }).waitFor();
    await shot(page, "13b-partial-capture");
  });
});

describe("versions", () => {
  it("re-captures into Version 2, renames it, and deleting a version lands on the page", async () => {
    const { page, api } = await signedIn(e2e, "versions");
    const projectId = await newProject(api, "Versioned");
    const added = await api.post(`/api/projects/${projectId}/pages`, { url: `${site.url}/pricing` });
    expect(added.status).toBe(202);
    const { pageId, versionId } = added.body.data;
    await page.goto(`/project/${projectId}/${pageId}/${versionId}/comment`);
    await (await snapshotFrame(page)).getByRole("heading", { name: "Fixture pricing" }).waitFor();

    await page.getByRole("button", { name: /^Versions: Version 1/ }).click();
    const panel = page.getByRole("complementary", { name: "Versions" });
    await panel.getByRole("button", { name: "Re-capture" }).click();
    await page.waitForURL((url) => !url.pathname.includes(versionId));
    await page.getByRole("button", { name: /^Versions: Version 2/ }).waitFor();
    await (await snapshotFrame(page))
      .getByRole("heading", { name: "Fixture pricing" })
      .waitFor({ timeout: 30_000 });
    const versions = panel.getByRole("list", { name: "Versions of this page" });
    await expect
      .poll(() => versions.getByRole("link").allInnerTexts())
      .toEqual([expect.stringContaining("Version 2"), expect.stringContaining("Version 1")]);
    await shot(page, "12-versions-panel");
    await page.getByRole("button", { name: "Pages", exact: true }).click();
    await page.getByRole("complementary", { name: "Pages" }).getByText("Fixture pricing").waitFor();
    await shot(page, "12b-pages-panel-in-review");
    await page.getByRole("button", { name: /^Versions: / }).click();

    await panel.getByRole("button", { name: "Rename Version 2" }).click();
    await panel.getByLabel("Version title").fill("After the redesign");
    await panel.getByLabel("Version title").press("Enter");
    await versions.getByText("After the redesign").waitFor();
    await page.getByRole("button", { name: /^Versions: After the redesign/ }).waitFor();

    await panel.getByRole("button", { name: "Delete After the redesign" }).click();
    await page
      .getByRole("dialog", { name: "Delete this version?" })
      .getByRole("button", { name: "Delete version" })
      .click();
    await page.waitForURL((url) => url.pathname === `/project/${projectId}/${pageId}`);
    await page.getByRole("list", { name: "Pages of this project" }).getByText("1 version").waitFor();
    // The last remaining version cannot be deleted.
    const remaining = await api.get(`/api/projects/${projectId}`);
    expect(remaining.body.data.pages[0].versions).toHaveLength(1);
  });
});

describe("the sandbox around captured pages", () => {
  it("keeps a captured page away from the app's cookies and API", async () => {
    const { page, api } = await signedIn(e2e, "sandbox");
    const projectId = await newProject(api, "Hostile");
    const { pageId, versionId } = (
      await api.post(`/api/projects/${projectId}/pages`, { url: `${site.url}/` })
    ).body.data;
    await page.goto(`/project/${projectId}/${pageId}/${versionId}/comment`);
    const frame = await snapshotFrame(page);
    await frame.getByRole("heading", { name: "Fixture home" }).waitFor({ timeout: 30_000 });

    const iframe = page.locator('iframe[title="Page snapshot"]');
    expect(await iframe.getAttribute("sandbox")).toBe("allow-scripts");
    expect(new URL((await iframe.getAttribute("src"))!).origin).toBe(e2e.app.contentUrl);

    // The page's own script ran once, on the live page while it was captured, and not in the viewer.
    expect(await frame.evaluate(() => document.body.dataset.runs)).toBe("1");
    // Only our own scripts (from the content origin) may be in the snapshot; none of the page's.
    const scripts = await frame.evaluate(() => Array.from(document.scripts, (script) => script.src));
    for (const src of scripts) expect(src.startsWith(`${e2e.app.contentUrl}/`)).toBe(true);
    // An opaque origin: no cookies, no storage, no parent, no credentialed call to the app.
    expect(await frame.evaluate(() => self.origin)).toBe("null");
    expect(
      await frame.evaluate(() => {
        try {
          return document.cookie;
        } catch {
          return "blocked";
        }
      }),
    ).toBe("blocked");
    expect(
      await frame.evaluate(() => {
        try {
          return String(window.localStorage.length);
        } catch {
          return "blocked";
        }
      }),
    ).toBe("blocked");
    expect(
      await frame.evaluate(() => {
        try {
          return window.parent.document.cookie;
        } catch {
          return "blocked";
        }
      }),
    ).toBe("blocked");
    const me = await frame.evaluate(async (appUrl) => {
      try {
        const response = await fetch(`${appUrl}/api/me`, { credentials: "include" });
        return await response.text();
      } catch {
        return "blocked";
      }
    }, e2e.baseUrl);
    expect(me).toBe("blocked");

    // The content origin sandboxes the document itself, even opened outside the iframe.
    const view = (await api.get(`/api/versions/${versionId}/view`)).body.data;
    const csp = (await fetch(view.contentUrl)).headers.get("content-security-policy")!;
    expect(csp).toContain("sandbox allow-scripts");
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? "";
    expect(scriptSrc).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(scriptSrc).not.toContain(e2e.baseUrl);
    expect(csp).toContain("connect-src 'none'");
  });
});
