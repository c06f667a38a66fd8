/**
 * The browser extension in Debian's Firefox ESR (issue #31: one source, Chromium-based browsers and
 * Firefox): the Firefox build (dist/firefox-mv3) installed as a temporary add-on, driven by Puppeteer over
 * WebDriver BiDi. A person signs the extension in through the app without a password — Firefox has no
 * `externally_connectable`, so the extension takes its credential at its next poll — adds a page of a web
 * app behind a cookie sign-in to a web-app project from the popup, and the page is in Redline as they saw
 * it (the signed-in document and the tab's pixels). The server answers the extension's origin, a random
 * `moz-extension://<uuid>` per installation, through `EXTENSION_ORIGINS`' wildcard form, and revoking the
 * extension in Account Settings signs it out.
 */
import { comparePngs } from "@redline/capture/testing";
import { EXTENSION_ID, EXTENSION_MESSAGES } from "@redline/shared";
import { eq } from "drizzle-orm";
import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FirefoxWithExtension,
  launchFirefoxWithExtension,
} from "../apps/extension/scripts/test-browser.ts";
import { versions } from "../apps/server/src/db/schema/index.ts";
import { testComment } from "../apps/server/src/testing/anchors.ts";
import {
  expectBlockRegionAdded,
  pagesOf,
  personWithWebApp,
  reviewPathOf,
  SIGNED_IN_HEADING,
  sessionCookies,
  startWebApp,
  storedBytes,
} from "./extension-journey.ts";
import { type E2E, startE2E } from "./harness.ts";
import type { Site } from "./helpers.ts";

let e2e: E2E;
let site: Site;
let firefox: FirefoxWithExtension;

beforeAll(async () => {
  [e2e, site] = await Promise.all([
    startE2E({
      // The shipped default's wildcard form: any Firefox installation of the extension (each has its own id).
      config: {
        captureWorker: true,
        extensionOrigins: [`chrome-extension://${EXTENSION_ID}`, "moz-extension://*"],
      },
      appHost: "localhost",
    }),
    startWebApp(),
  ]);
  // The build for this Redline, reading the fixture's host without a click (a test build only, as in
  // Chromium: the shipped one reads a page when the person asks — activeTab).
  firefox = await launchFirefoxWithExtension(e2e.baseUrl, ["http://127.0.0.1/*"]);
}, 180_000);

afterAll(async () => {
  await firefox?.close();
  await Promise.all([e2e?.close(), site?.close()]);
});

/** What the extension's pages may ask of Firefox (`browser.*`), for the test to read. */
type ExtensionPage = {
  browser: {
    storage: { local: { get(key: string): Promise<{ account?: { secret: string } }> } };
    tabs: { query(query: object): Promise<{ id?: number; url?: string }[]> };
    action: { getBadgeText(details: { tabId: number }): Promise<string> };
  };
};

const button = (name: string) => `::-p-aria([name="${name}"][role="button"])`;

/** Signs Firefox into Redline as `email` (a session of its own). */
async function signInFirefox(email: string) {
  const { hostname } = new URL(e2e.baseUrl);
  const cookies = await sessionCookies(e2e, email);
  await firefox.browser.setCookie(
    ...cookies.map((cookie) => ({ ...cookie, domain: hostname, path: "/", httpOnly: true })),
  );
}

/**
 * Signs the extension in from its popup: Redline opens, the person allows the extension there, and the
 * extension takes its credential at its next poll (every 1.5 s) — in Firefox, Redline's page cannot tell
 * it (no `externally_connectable`). Answers how long after the approval the popup showed the projects.
 */
async function signInExtension(popup: Page): Promise<number> {
  // Signed out first if it was signed in (as someone else).
  const signedIn = await popup.waitForFunction(
    () => {
      const names = [...document.querySelectorAll("button")].map((element) => element.textContent);
      return names.includes("Sign out") ? "yes" : names.includes("Sign in with Redline") && "no";
    },
    { timeout: 20_000 },
  );
  if ((await signedIn.jsonValue()) === "yes") await popup.locator(button("Sign out")).click();
  const connectOpens = firefox.browser.waitForTarget((target) => target.url().includes("/extension/connect"));
  connectOpens.catch(() => {});
  await popup.locator(button("Sign in with Redline")).click();
  const connect = (await (await connectOpens).page())!;
  // Redline's page has no way to talk to the extension in Firefox.
  expect(
    await connect.evaluate(
      () =>
        typeof (globalThis as { chrome?: { runtime?: { sendMessage?: unknown } } }).chrome?.runtime
          ?.sendMessage,
    ),
  ).toBe("undefined");
  await connect.locator(button("Allow the extension")).click();
  await connect.waitForSelector(`::-p-text(${EXTENSION_MESSAGES.approved})`);
  const approved = Date.now();
  await popup.waitForSelector("#project", { timeout: 30_000 });
  const signedInMs = Date.now() - approved;
  await connect.close();
  return signedInMs;
}

describe("the browser extension in Firefox", () => {
  it("signs in through the app, adds a signed-in page from the popup, and is signed out by revoking it", async () => {
    const { email, api, projectId } = await personWithWebApp(e2e, "Billing app");
    await signInFirefox(email);

    // The web app, signed in in the person's own tab; the server itself only gets its sign-in page.
    const app = await firefox.browser.newPage();
    await app.goto(`${site.url}/login`);
    await app.waitForSelector(`::-p-text(${SIGNED_IN_HEADING})`);
    expect(await (await fetch(`${site.url}/app`)).text()).toContain("Please sign in");

    // The person presses the extension's shortcut on that tab (Firefox grants it the tab, as a click on its
    // button does): its popup opens, and signing in there opens Redline, where the person allows it.
    await app.bringToFront();
    const popup = await firefox.pressShortcut(`${site.url}/app`);
    const signedInMs = await signInExtension(popup);
    console.log(`Firefox: signed in ${signedInMs} ms after the approval`);
    expect(signedInMs).toBeLessThan(10_000);
    await app.bringToFront();

    // The server answered the extension's origin, and answers it alone: the credential it holds works
    // from that origin and is refused from any other.
    const { account } = await popup.evaluate(() =>
      (globalThis as unknown as ExtensionPage).browser.storage.local.get("account"),
    );
    expect(account?.secret).toBeTruthy();
    const projectsFrom = (origin: string) =>
      fetch(`${e2e.baseUrl}/api/extension/projects`, {
        headers: { origin, authorization: `Bearer ${account!.secret}` },
      });
    const answered = await projectsFrom(firefox.origin);
    expect(answered.status).toBe(200);
    expect(answered.headers.get("access-control-allow-origin")).toBe(firefox.origin);
    expect((await projectsFrom("https://evil.example")).status).toBe(403);

    // Add this page, to the web-app project: it opens in Redline.
    await popup.select("#project", projectId);
    const reviewOpens = firefox.browser.waitForTarget(
      (target) => reviewPathOf(projectId).test(target.url()),
      {
        timeout: 30_000,
      },
    );
    const clicked = Date.now();
    await popup.locator(button("Add this page")).click();
    const review = (await (await reviewOpens).page())!;
    console.log(`Firefox: add this page ${Date.now() - clicked} ms from the click to Redline opening it`);

    // The page is in Redline as the person saw it: the signed-in document, shown in the review view …
    const [page, ...more] = await pagesOf(e2e, projectId);
    expect(more).toHaveLength(0);
    expect(page).toMatchObject({ url: `${site.url}/app`, title: "Dashboard", source: "extension" });
    const iframe = await review.waitForSelector('iframe[title="Page snapshot"]', { timeout: 60_000 });
    const frame = (await iframe!.contentFrame())!;
    await frame.waitForSelector(`::-p-text(${SIGNED_IN_HEADING})`, { timeout: 60_000 });
    expect(await frame.evaluate(() => document.body.textContent)).not.toContain("Please sign in");
    // The served snapshot, at the tab's size, is the tab's pixels.
    const served = await firefox.browser.newPage();
    await served.goto(
      new URL((await iframe!.evaluate((element) => element.getAttribute("src")))!, e2e.baseUrl).href,
    );
    await served.waitForSelector(`::-p-text(${SIGNED_IN_HEADING})`);
    const tabPixels = async () => {
      await app.bringToFront();
      return Buffer.from(await app.screenshot());
    };
    const rendered = comparePngs(await tabPixels(), Buffer.from(await served.screenshot()));
    console.log(`Firefox: the snapshot vs the tab: ${(rendered.identical * 100).toFixed(2)} % identical`);
    expect(rendered.identical).toBeGreaterThanOrEqual(0.99);
    await served.close();
    // … and the tab's pixels, captured by Firefox, are the tab as it shows.
    const screenshotKey = async () =>
      (await e2e.app.ctx.database.db.select().from(versions).where(eq(versions.pageId, page!.id)))[0]
        ?.screenshotKey;
    await expect.poll(screenshotKey, { timeout: 30_000 }).toBeTruthy();
    const captured = await storedBytes(e2e, (await screenshotKey())!);
    const { identical } = comparePngs(captured, await tabPixels());
    console.log(`Firefox: the tab's captured pixels vs the tab: ${(identical * 100).toFixed(2)} % identical`);
    expect(identical).toBeGreaterThanOrEqual(0.99);

    // A comment pinned there: the live page's badge counts it.
    const [, , , , versionId] = new URL(review.url()).pathname.split("/");
    const pinned = await api.post(
      `/api/versions/${versionId}/comments`,
      testComment("Invoice total is cut off"),
    );
    expect(pinned.status).toBeLessThan(300);
    await review.close();
    await app.reload();
    const badge = () =>
      popup.evaluate(async (address) => {
        const { browser } = globalThis as unknown as ExtensionPage;
        const tab = (await browser.tabs.query({})).find((each) => each.url === address);
        return browser.action.getBadgeText({ tabId: tab!.id! });
      }, `${site.url}/app`);
    await expect.poll(badge, { timeout: 20_000 }).toBe("1");

    // Revoking it in Account Settings signs the extension out at once.
    const settings = await firefox.browser.newPage();
    await settings.goto(`${e2e.baseUrl}/profile`);
    await settings.locator(button("Revoke token Browser extension")).click();
    await settings.locator(button("Revoke")).click();
    await expect.poll(async () => (await projectsFrom(firefox.origin)).status).toBe(401);
    await popup.close();
    await app.bringToFront();
    const reopened = await firefox.pressShortcut(`${site.url}/app`);
    await reopened.waitForSelector(button("Sign in with Redline"), { timeout: 20_000 });
    expect(await api.get("/api/me/tokens").then((answer) => answer.body.data)).toEqual([]);
    await Promise.all([settings, reopened, app].map((tab) => tab.close()));
  }, 120_000);

  it("adds a dragged region of the tab as an image page", async () => {
    const { email, projectId } = await personWithWebApp(e2e, "Region app");
    await signInFirefox(email);
    const board = await firefox.browser.newPage();
    await board.goto(`${site.url}/board`);
    await board.waitForSelector("#block");
    /** The element the person would reach at the block: the block itself, or the extension's overlay. */
    const atBlock = () =>
      board.evaluate(() => (document.elementFromPoint(200, 175)?.id === "block" ? "block" : "overlay"));
    await board.bringToFront();
    const popup = await firefox.pressShortcut(`${site.url}/board`);
    await signInExtension(popup);
    await board.bringToFront();
    await popup.select("#project", projectId);
    await popup.locator(button("Screenshot a region")).click();
    await expect.poll(atBlock).toBe("overlay");
    // The page has no way to reach the extension, nor sees anything of its script.
    expect(
      await board.evaluate(() => ({
        browser: typeof (globalThis as { browser?: unknown }).browser,
        flag: (globalThis as { __redlineRegion?: unknown }).__redlineRegion,
      })),
    ).toEqual({ browser: "undefined", flag: undefined });

    const reviewOpens = firefox.browser.waitForTarget(
      (target) => reviewPathOf(projectId).test(target.url()),
      {
        timeout: 30_000,
      },
    );
    await board.mouse.move(100, 100);
    await board.mouse.down();
    await board.mouse.move(200, 180, { steps: 4 });
    await board.mouse.move(300, 250, { steps: 4 });
    await board.mouse.up();
    const review = (await (await reviewOpens).page())!;
    await review.waitForSelector("img", { timeout: 30_000 });
    await expectBlockRegionAdded(e2e, projectId);
    await Promise.all([review, board].map((tab) => tab.close()));
  }, 120_000);
});
