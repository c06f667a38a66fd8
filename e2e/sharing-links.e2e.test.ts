import http from "node:http";
import type { AddressInfo } from "node:net";
import { accessLabel, pageAddedMessage, SHARING_MESSAGES } from "@redline/shared";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, signUpVerified } from "../apps/server/src/testing/http-client.ts";
import { type E2E, startE2E, uniqueEmail } from "./harness.ts";
import { newProject, PASSWORD, shot, signedIn } from "./helpers.ts";

let e2e: E2E;
let site: { url: string; close(): Promise<void> };

/** A small site whose home page links to other pages of it (and to things that are not pages). */
async function startSite() {
  const page = (title: string, body = "") =>
    `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
  const links = [
    "/about",
    "/pricing",
    "/blog/launch",
    "/style.css",
    "/docs/",
    "/search?q=x",
    "https://elsewhere.example/about",
  ]
    .map((href) => `<a href="${href}">${href}</a>`)
    .join(" ");
  const server = http.createServer((request, response) => {
    const html = (text: string) => response.writeHead(200, { "content-type": "text/html" }).end(text);
    if (request.url === "/") html(page("Fixture home", links));
    else if (request.url === "/about") html(page("Fixture about"));
    else if (request.url === "/pricing") html(page("Fixture pricing"));
    else if (request.url === "/blog/launch") html(page("Fixture launch"));
    else response.writeHead(404, { "content-type": "text/plain" }).end("Not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

async function waitReady(api: ApiClient, versionId: string): Promise<void> {
  await expect
    .poll(async () => (await api.get(`/api/versions/${versionId}`)).body.data.status, { timeout: 30_000 })
    .toBe("ready");
}

async function upload(api: ApiClient, projectId: string, name: string) {
  const bytes = await sharp({ create: { width: 480, height: 320, channels: 3, background: "#2f5fb3" } })
    .png()
    .toBuffer();
  const added = await api.upload(`/api/projects/${projectId}/uploads`, { name, type: "image/png", bytes });
  expect(added.status).toBe(201);
}

/** Flips one of the link's switches in the owner's open share modal and waits for the server. */
async function setSwitch(page: Page, api: ApiClient, projectId: string, label: string, checked: boolean) {
  const control = page.getByRole("dialog").getByRole("switch", { name: label, exact: true });
  if ((await control.getAttribute("aria-checked")) !== String(checked)) await control.click();
  await expect.poll(() => control.getAttribute("aria-checked")).toBe(String(checked));
  const key = {
    "Anyone with the link can view": "public",
    "Show all pages": "showAllPages",
    "Show page versions": "showPageVersions",
    "Hide device toolbar": "hideDeviceToolbar",
  }[label]!;
  await expect
    .poll(async () => (await api.get(`/api/projects/${projectId}`)).body.data.sharing[key])
    .toBe(checked);
}

beforeAll(async () => {
  // The similar-pages picker shows the free plan's page limit.
  [e2e, site] = await Promise.all([
    startE2E({ config: { captureWorker: true, plansEnabled: true } }),
    startSite(),
  ]);
});

afterAll(async () => {
  await e2e.close();
  await site.close();
});

describe("public link", () => {
  it("shows an anonymous visitor what the settings allow, until the link is turned off", {
    timeout: 120_000,
  }, async () => {
    const owner = await signedIn(e2e, "owner", "Olive Owner");
    const projectId = await newProject(owner.api, "Public site");
    const added = await owner.api.post(`/api/projects/${projectId}/pages`, { url: `${site.url}/about` });
    expect(added.status).toBe(202);
    await waitReady(owner.api, added.body.data.versionId);
    const again = await owner.api.post(`/api/pages/${added.body.data.pageId}/versions`, {});
    expect(again.status).toBeLessThan(300);
    await waitReady(owner.api, again.body.data.id);
    await upload(owner.api, projectId, "moodboard.png");

    // The owner turns the link on in the share modal and reads it from there.
    await owner.page.goto(`/project/${projectId}`);
    await owner.page.getByRole("button", { name: "Share", exact: true }).click();
    await setSwitch(owner.page, owner.api, projectId, "Anyone with the link can view", true);
    const link = await owner.page.getByLabel("Share link", { exact: true }).inputValue();
    expect(link).toBe(`${e2e.baseUrl}/share/${projectId}`);
    expect(await owner.page.getByLabel("Embed link", { exact: true }).inputValue()).toBe(
      `${e2e.baseUrl}/embed/${projectId}`,
    );
    await shot(owner.page, "22-share-modal-public");

    // A signed-out visitor is asked for a name once.
    const visitor = await e2e.newPage();
    await visitor.goto(link);
    await visitor.getByRole("heading", { name: "Public site" }).waitFor();
    await shot(visitor, "23-guest-prompt");
    await visitor.getByLabel("Your name").fill("Margaret");
    await visitor.getByRole("button", { name: "Continue", exact: true }).click();
    const pages = visitor.getByRole("list", { name: "Pages of this project" });
    await pages.getByText("moodboard").waitFor();
    await expect.poll(() => pages.getByRole("listitem").count()).toBe(2);
    await visitor.getByRole("heading", { name: "Fixture about", level: 1 }).waitFor();
    await expect
      .poll(() => visitor.getByLabel("Version").locator("option").allInnerTexts())
      .toEqual(["Version 2", "Version 1"]);
    await visitor.getByRole("button", { name: "Tablet" }).waitFor();
    await visitor.locator('iframe[title="Page snapshot"]').waitFor();
    const stored = await visitor.evaluate(() => localStorage.getItem("redline.guest"));
    expect(JSON.parse(stored!).identity).toMatch(/^guest__[1-9]__Margaret__$/);
    expect(await visitor.getByRole("button", { name: /Approve/ }).count()).toBe(0);
    await shot(visitor, "24-public-share-page");

    // Narrower settings: only the first page, only its latest version, no device toolbar.
    await setSwitch(owner.page, owner.api, projectId, "Show all pages", false);
    await setSwitch(owner.page, owner.api, projectId, "Show page versions", false);
    await setSwitch(owner.page, owner.api, projectId, "Hide device toolbar", true);
    await visitor.reload();
    await visitor.getByRole("heading", { name: "Fixture about", level: 1 }).waitFor();
    await visitor.locator('iframe[title="Page snapshot"]').waitFor();
    expect(await visitor.getByLabel("Your name").count()).toBe(0);
    expect(await pages.count()).toBe(0);
    expect(await visitor.getByLabel("Version").count()).toBe(0);
    expect(await visitor.getByRole("button", { name: /^(Desktop|Tablet|Mobile)$/ }).count()).toBe(0);
    await visitor.getByText("Version 2", { exact: true }).waitFor();
    await shot(visitor, "25-public-share-narrow");

    // A signed-in visitor joins by the link with comment access.
    const member = await signedIn(e2e, "joiner", "Jo Joiner");
    await member.page.goto(`/share/${projectId}`);
    await member.page.waitForURL((url) => url.pathname === `/project/${projectId}`);
    await member.page.getByText(accessLabel("comment"), { exact: true }).waitFor();

    // The link turned off: a reload says so and goes to the landing page.
    await setSwitch(owner.page, owner.api, projectId, "Anyone with the link can view", false);
    await visitor.reload();
    await visitor.getByText(SHARING_MESSAGES.notAccessible, { exact: true }).waitFor();
    await visitor.waitForURL((url) => url.pathname === "/");
  });

  it("copies a version's external link, which opens for a signed-out visitor", async () => {
    const { page, api } = await signedIn(e2e, "linker", "Lena Linker");
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: e2e.baseUrl });
    const projectId = await newProject(api, "Linked");
    await upload(api, projectId, "banner.png");
    await api.patch(`/api/projects/${projectId}/sharing`, { public: true });
    const shared = (await api.get(`/api/projects/${projectId}`)).body.data.pages[0];
    await page.goto(`/project/${projectId}/${shared.id}/${shared.versions[0].id}/comment`);
    await page.getByRole("button", { name: /^Versions: Version 1/ }).click();
    await page.getByRole("button", { name: "Copy external link to Version 1" }).click();
    await page.getByText("Link copied.", { exact: false }).waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(`${e2e.baseUrl}/preview/${projectId}/${shared.id}/${shared.versions[0].id}`);

    const visitor = await e2e.newPage();
    await visitor.goto(link);
    await visitor.getByRole("img", { name: "banner" }).waitFor();
  });

  it("asks nothing of a preview, offers 'Continue as Anonymous', and opens the demo project", async () => {
    const owner = await signUpVerified(e2e.baseUrl, e2e.app.inbox!, uniqueEmail("owner"), PASSWORD);
    const projectId = await newProject(owner, "Previewed");
    await upload(owner, projectId, "poster.png");
    await owner.patch(`/api/projects/${projectId}/sharing`, { public: true });
    const page = (await owner.get(`/api/projects/${projectId}`)).body.data.pages[0];

    const visitor = await e2e.newPage();
    await visitor.goto(`/preview/${projectId}/${page.id}/${page.versions[0].id}`);
    await visitor.getByRole("img", { name: "poster" }).waitFor();
    expect(await visitor.getByLabel("Your name").count()).toBe(0);

    await visitor.goto(`/embed/${projectId}`);
    await visitor.getByRole("button", { name: "Continue as Anonymous" }).click();
    await visitor.getByRole("img", { name: "poster" }).waitFor();
    await visitor.getByText("Anonymous", { exact: true }).waitFor();
    await shot(visitor, "28-embed");
    expect(await visitor.locator(".public-layout__bar").count()).toBe(0);
    const stored = await visitor.evaluate(() => localStorage.getItem("redline.guest"));
    expect(JSON.parse(stored!).identity).toBe("public");

    await visitor.goto("/share/demo");
    await visitor.getByRole("img", { name: "Acme Cloud home" }).waitFor();
    await visitor.goto("/share/no-such-project");
    await visitor.getByText(SHARING_MESSAGES.notAccessible, { exact: true }).waitFor();
    await visitor.waitForURL((url) => url.pathname === "/");
  });
});

describe("similar-pages picker", () => {
  it("lists the pages a site links to, caps them by the page limit, and adds the chosen ones", {
    timeout: 120_000,
  }, async () => {
    const { page, api } = await signedIn(e2e, "picker", "Pia Picker");
    const projectId = await newProject(api, "Picked pages");
    for (const name of ["one.png", "two.png", "three.png"]) await upload(api, projectId, name);
    await page.goto(`/project/${projectId}`);
    await page.getByText("3 / 5").waitFor();

    await page.getByLabel("Page URL").fill(site.url);
    await page.getByRole("button", { name: "More ways to add pages" }).click();
    await page.getByRole("menuitem", { name: "Add several pages from this site" }).click();
    const dialog = page.getByRole("dialog", { name: "Add several pages" });
    const picker = dialog.getByRole("group", { name: "Pages found on this site" });
    await picker.getByRole("checkbox", { name: "/about" }).waitFor();
    await expect
      .poll(() => picker.locator("label").allInnerTexts())
      .toEqual(["/about", "/blog/launch", "/pricing"]);
    await picker.getByText("Choose up to 2 pages").waitFor();

    await picker.getByRole("checkbox", { name: "/about" }).check();
    await picker.getByRole("checkbox", { name: "/pricing" }).check();
    await expect.poll(() => picker.getByRole("checkbox", { name: "/blog/launch" }).isDisabled()).toBe(true);
    await shot(page, "26-similar-pages-picker");
    await dialog.getByRole("button", { name: "Add 2 pages" }).click();
    await page.getByText(pageAddedMessage(1, 2), { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByText(pageAddedMessage(2, 2), { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByRole("link", { name: "Back to project" }).click();
    const pages = page.getByRole("list", { name: "Pages of this project" });
    await pages.getByText("Fixture about").waitFor();
    await pages.getByText("Fixture pricing").waitFor();
    await page.getByText("You have reached the limit of 5 pages on the Free Plan").waitFor();
  });
});
