/**
 * The browser extension in Debian's Chromium (issue #31): the unpacked build loaded in a persistent
 * context. A person signs the extension in through the app, opens a fixture web app that needs a cookie
 * sign-in (the server cannot reach its signed-in content), adds it to a web-app project from the popup;
 * the page opens in Redline showing the signed-in content; a comment pinned there is the badge's count on
 * the live page; the app sees the extension and hides its promo badge; a view-only project is not offered.
 */
import { comparePngs } from "@redline/capture/testing";
import { EXTENSION_ID, EXTENSION_MESSAGES } from "@redline/shared";
import type { BrowserContext, Page, Worker } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ExtensionBrowser, launchWithExtension } from "../apps/extension/scripts/test-browser.ts";
import { UPLOAD_MESSAGES } from "../apps/extension/src/upload.ts";
import { testComment } from "../apps/server/src/testing/anchors.ts";
import { signUpVerified } from "../apps/server/src/testing/http-client.ts";
import {
  expectBlockRegionAdded,
  pagesOf,
  personWithWebApp,
  reviewPathOf,
  SIGNED_IN_HEADING,
  sessionCookies,
  startWebApp,
} from "./extension-journey.ts";
import { type E2E, startE2E, uniqueEmail } from "./harness.ts";
import { addMember, newProject, PASSWORD, type Site, shot } from "./helpers.ts";

let e2e: E2E;
let site: Site;
let extension: ExtensionBrowser;
let context: BrowserContext;
let worker: Worker;

beforeAll(async () => {
  [e2e, site] = await Promise.all([
    startE2E({ config: { captureWorker: true }, appHost: "localhost" }),
    startWebApp(),
  ]);
  // The extension built for this Redline (on localhost), reading the fixture's host (127.0.0.1) without a
  // click: a test build only — the shipped one reads a page when the person asks (activeTab).
  extension = await launchWithExtension(e2e.baseUrl, ["http://127.0.0.1/*"]);
  ({ context, worker } = extension);
}, 180_000);

afterAll(async () => {
  await extension?.close();
  await Promise.all([e2e?.close(), site?.close()]);
});

/** Signs the persistent context into Redline as `email` (a session of its own, as signInPage makes). */
async function signInContext(email: string) {
  const cookies = await sessionCookies(e2e, email);
  await context.addCookies(cookies.map((cookie) => ({ ...cookie, url: e2e.baseUrl, httpOnly: true })));
}

/** The extension APIs the test asks inside the extension's worker. */
interface ChromeApi {
  tabs: { query(query: object): Promise<{ id?: number; url?: string }[]> };
  action: { getBadgeText(details: { tabId: number }): Promise<string> };
}

const tabIdOf = (url: string) =>
  worker.evaluate(
    async (address) =>
      (await (globalThis as unknown as { chrome: ChromeApi }).chrome.tabs.query({})).find((tab) =>
        tab.url?.startsWith(address),
      )?.id,
    url,
  );

/** The popup as a page for the tab at `url`, signed in as the person the context is signed in as. */
async function connectedPopup(url: string): Promise<Page> {
  const tabId = await tabIdOf(url);
  expect(tabId).toBeDefined();
  const popup = await context.newPage();
  await popup.goto(`chrome-extension://${EXTENSION_ID}/popup.html?tab=${tabId}`);
  const signIn = popup.getByRole("button", { name: "Sign in with Redline" });
  const signOut = popup.getByRole("button", { name: "Sign out" });
  await signIn.or(signOut).waitFor();
  if (await signOut.isVisible()) {
    await signOut.click();
    await signIn.waitFor();
  }
  const connectOpens = context.waitForEvent("page");
  await signIn.click();
  const connect = await connectOpens;
  await connect.getByRole("button", { name: "Allow the extension" }).click();
  await connect.getByText(EXTENSION_MESSAGES.approved).waitFor();
  await connect.close();
  await popup.getByLabel("Project").waitFor({ timeout: 30_000 });
  return popup;
}

/**
 * The person clicks the extension's toolbar button on the tab at `url`: the browser grants the extension
 * that tab (activeTab), as the shipped build gets it (the DevTools protocol's Extensions.triggerAction;
 * headless, its popup is not drawn — the test opens it as a page).
 */
async function clickToolbarButton(url: string) {
  const browser = await context.browser()!.newBrowserCDPSession();
  const { targetInfos } = await browser.send("Target.getTargets", { filter: [{ type: "tab" }] });
  const tab = targetInfos.find((target) => target.url.startsWith(url));
  expect(tab).toBeDefined();
  await browser.send("Extensions.triggerAction", { id: EXTENSION_ID, targetId: tab!.targetId });
  await browser.detach();
}

/** A popup for the tab at `url`, once the extension is signed in. */
async function popupFor(url: string): Promise<Page> {
  const popup = await context.newPage();
  await popup.goto(`chrome-extension://${EXTENSION_ID}/popup.html?tab=${await tabIdOf(url)}`);
  await popup.getByLabel("Project").waitFor({ timeout: 30_000 });
  return popup;
}

/** A new person, signed in to the context, with a web-app project. */
async function personWithProject(title: string) {
  const { email, api, projectId } = await personWithWebApp(e2e, title);
  await signInContext(email);
  return { api, projectId };
}

describe("the browser extension", () => {
  it("adds a page behind a cookie sign-in to a web-app project, as the person sees it", async () => {
    const { email, api, projectId } = await personWithWebApp(e2e, "Billing app");
    // Someone else's web app, where this person may only view: not offered.
    const other = await signUpVerified(
      e2e.baseUrl,
      e2e.app.inbox!,
      uniqueEmail("client"),
      PASSWORD,
      "Client",
    );
    const viewOnly = await newProject(other, "Client portal", "webapp");
    await addMember(other, viewOnly, email, "view");
    await signInContext(email);

    // The web app, signed in in the person's own tab; the server itself only gets its sign-in page.
    const app = await context.newPage();
    await app.goto(`${site.url}/login`);
    await app.getByRole("heading", { name: SIGNED_IN_HEADING }).waitFor();
    expect(await (await fetch(`${site.url}/app`)).text()).toContain("Please sign in");
    // A web page other than Redline's has no way to message the extension.
    expect(
      await app.evaluate(
        () =>
          typeof (globalThis as { chrome?: { runtime?: { sendMessage?: unknown } } }).chrome?.runtime
            ?.sendMessage,
      ),
    ).toBe("undefined");
    const tabId = await tabIdOf(`${site.url}/app`);
    expect(tabId).toBeDefined();

    // The popup (as a page for that tab): signing in opens Redline, which hands the extension its credential.
    const popup = await context.newPage();
    await popup.goto(`chrome-extension://${EXTENSION_ID}/popup.html?tab=${tabId}`);
    const connectOpens = context.waitForEvent("page");
    await popup.getByRole("button", { name: "Sign in with Redline" }).click();
    const connect = await connectOpens;
    await connect.getByRole("button", { name: "Allow the extension" }).click();
    await connect.getByText(EXTENSION_MESSAGES.approved).waitFor();
    await shot(connect, "extension-connect");

    // Only the project the person may edit is offered.
    const project = popup.getByLabel("Project");
    await project.waitFor({ timeout: 30_000 });
    const offered = await project.locator("option").allTextContents();
    expect(offered).toContain("Billing app");
    expect(offered).not.toContain("Client portal");
    await project.selectOption({ label: "Billing app" });
    await shot(popup, "extension-popup");

    // Add this page: it opens in Redline, showing what the signed-in person saw.
    const opens = context.waitForEvent("page");
    const clicked = Date.now();
    await popup.getByRole("button", { name: "Add this page" }).click();
    const review = await opens;
    const openedMs = Date.now() - clicked;
    await review.waitForURL(reviewPathOf(projectId));
    const iframe = review.locator('iframe[title="Page snapshot"]');
    await iframe.waitFor({ timeout: 60_000 });
    const frame = await (await iframe.elementHandle())!.contentFrame();
    await frame!.getByRole("heading", { name: SIGNED_IN_HEADING }).waitFor({ timeout: 60_000 });
    await shot(review, "extension-added");

    // The snapshot matches the tab's pixels: the served snapshot and the live tab, both at 1280×800.
    const snapshotUrl = await iframe.getAttribute("src");
    const served = await context.newPage();
    await served.goto(new URL(snapshotUrl!, e2e.baseUrl).toString());
    await served.getByRole("heading", { name: SIGNED_IN_HEADING }).waitFor();
    const { identical } = comparePngs(await app.screenshot(), await served.screenshot());
    console.log(`snapshot vs the tab: ${(identical * 100).toFixed(2)} % identical pixels`);
    expect(identical).toBeGreaterThanOrEqual(0.99);
    await served.close();
    console.log(`add this page: ${openedMs} ms from the click to Redline opening it`);
    // The target is 3 s (0.4–0.5 s measured here on a quiet machine); a loaded CI machine gets room.
    expect(openedMs).toBeLessThan(10_000);

    // A comment pinned there: the live page's badge counts it.
    const [, , , pageId, versionId] = new URL(review.url()).pathname.split("/");
    expect(pageId).toBeTruthy();
    const pinned = await api.post(
      `/api/versions/${versionId}/comments`,
      testComment("Invoice total is cut off"),
    );
    expect(pinned.status).toBeLessThan(300);
    await app.reload();
    await expect
      .poll(
        () =>
          worker.evaluate(
            (id) =>
              (globalThis as unknown as { chrome: ChromeApi }).chrome.action.getBadgeText({ tabId: id }),
            tabId!,
          ),
        {
          timeout: 20_000,
        },
      )
      .toBe("1");

    // The app sees the extension installed: no promo badge here, while a browser without it shows one.
    await review.goto(`${e2e.baseUrl}/project/${projectId}`);
    await review.getByText("Billing app").first().waitFor();
    // Its icon, which the app polls for, loads here.
    const iconLoads = await review.evaluate(
      (src) =>
        new Promise<boolean>((resolve) => {
          const image = new Image();
          image.onload = () => resolve(true);
          image.onerror = () => resolve(false);
          image.src = src;
        }),
      `chrome-extension://${EXTENSION_ID}/icon/16.png`,
    );
    expect(iconLoads).toBe(true);
    const plain = await e2e.newPage();
    await plain.context().addCookies(await context.cookies(e2e.baseUrl));
    await plain.goto(`/project/${projectId}`);
    await plain.getByRole("link", { name: "Get the browser extension" }).waitFor();
    await shot(plain, "extension-promo");
    expect(await review.getByRole("link", { name: "Get the browser extension" }).count()).toBe(0);
  });

  it("shows a lost upload as an error with a retry, and the retry adds the page", async () => {
    const { projectId } = await personWithProject("Flaky network app");
    const app = await context.newPage();
    await app.goto(`${site.url}/login`);
    await app.getByRole("heading", { name: SIGNED_IN_HEADING }).waitFor();
    const popup = await connectedPopup(`${site.url}/app`);
    await popup.getByLabel("Project").selectOption({ label: "Flaky network app" });
    // The network drops during the first upload only.
    await popup.route("**/api/extension/pages", (route) => route.abort("internetdisconnected"), { times: 1 });
    await popup.getByRole("button", { name: "Add this page" }).click();
    await expect.poll(() => popup.getByRole("alert").textContent()).toBe(UPLOAD_MESSAGES.offline);
    expect(await pagesOf(e2e, projectId)).toHaveLength(0);
    await shot(popup, "extension-upload-failed");
    const opens = context.waitForEvent("page");
    await popup.getByRole("button", { name: "Try again" }).click();
    const review = await opens;
    await review.waitForURL(reviewPathOf(projectId));
    expect(await pagesOf(e2e, projectId)).toHaveLength(1);
    await Promise.all([review, popup, app].map((page) => page.close()));
  });

  it("adds a dragged region of the tab as an image page; Esc cancels, and the page cannot forge one", async () => {
    const { projectId } = await personWithProject("Region app");
    const board = await context.newPage();
    await board.goto(`${site.url}/board`);
    await board.locator("#block").waitFor();
    /** The element the person would reach at the block: the block itself, or the extension's overlay. */
    const atBlock = () =>
      board.evaluate(() => (document.elementFromPoint(200, 175)?.id === "block" ? "block" : "overlay"));
    let popup = await connectedPopup(`${site.url}/board`);
    await popup.getByLabel("Project").selectOption({ label: "Region app" });
    await popup.getByRole("button", { name: "Screenshot a region" }).click();
    await expect.poll(atBlock).toBe("overlay");

    // The page imitates the extension: messages and events, synthetic drags and keys. None reaches it.
    const reached = await board.evaluate(async () => {
      const forged = { type: "region-selected", rect: { x: 0, y: 0, width: 500, height: 500 } };
      window.postMessage(forged, "*");
      window.postMessage({ type: "region-cancelled" }, "*");
      document.dispatchEvent(new CustomEvent("region-selected", { detail: forged }));
      const overlay = document.elementFromPoint(200, 175)!;
      for (const [type, x, y] of [
        ["pointerdown", 10, 10],
        ["pointermove", 400, 400],
        ["pointerup", 400, 400],
      ] as const)
        overlay.dispatchEvent(new PointerEvent(type, { clientX: x, clientY: y, bubbles: true, button: 0 }));
      window.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const chrome = (globalThis as { chrome?: { runtime?: { sendMessage?: unknown } } }).chrome;
      return {
        runtime: typeof chrome?.runtime?.sendMessage,
        // The extension's script leaves nothing of its own in the page's world.
        flag: (globalThis as { __redlineRegion?: unknown }).__redlineRegion,
        localStorage: Object.keys(localStorage),
      };
    });
    expect(reached).toEqual({ runtime: "undefined", flag: undefined, localStorage: [] });
    // The forged Escape did not cancel, the forged drag did not choose.
    expect(await atBlock()).toBe("overlay");

    // The person's own Esc cancels: the overlay leaves, and the worker forgets the request.
    await board.keyboard.press("Escape");
    await expect.poll(atBlock).toBe("block");
    const pending = () =>
      worker.evaluate(async () =>
        Object.keys(
          await (
            globalThis as unknown as { chrome: { storage: { session: { get(): Promise<object> } } } }
          ).chrome.storage.session.get(),
        ).filter((key) => key.startsWith("region:")),
      );
    await expect.poll(pending).toEqual([]);

    // Again, from the toolbar's button (which grants the extension the tab, as a click does), and the
    // person drags over the block: the region opens in Redline as an image page.
    await clickToolbarButton(`${site.url}/board`);
    popup = await popupFor(`${site.url}/board`);
    await popup.getByLabel("Project").selectOption({ label: "Region app" });
    await popup.getByRole("button", { name: "Screenshot a region" }).click();
    await expect.poll(atBlock).toBe("overlay");
    await board.bringToFront();
    const opens = context.waitForEvent("page");
    await board.mouse.move(100, 100);
    await board.mouse.down();
    await board.mouse.move(200, 180, { steps: 4 });
    await board.mouse.move(300, 250, { steps: 4 });
    await board.mouse.up();
    const review = await opens;
    await review.waitForURL(reviewPathOf(projectId), { timeout: 30_000 });
    await review.getByRole("img").first().waitFor({ timeout: 30_000 });
    await shot(review, "extension-region");
    await expectBlockRegionAdded(e2e, projectId);
    await Promise.all([review, board].map((page) => page.close()));
  });
});
