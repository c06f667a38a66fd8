/**
 * Steps the journeys share: a signed-in browser page for a fresh user, a project, a captured page, a
 * member, a fixture site on a free port, a screenshot.
 */
import { mkdir } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Frame, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { ApiClient, signUpVerified } from "../apps/server/src/testing/http-client.ts";
import { type E2E, launchBrowser, startE2E, uniqueEmail } from "./harness.ts";

export const PASSWORD = "correct horse battery";

/** Saves a screenshot when E2E_SCREENSHOTS names a folder (for looking at the screens), else nothing. */
export async function shot(page: Page, name: string): Promise<void> {
  const folder = process.env.E2E_SCREENSHOTS;
  if (!folder) return;
  await mkdir(folder, { recursive: true });
  await page.screenshot({ path: `${folder}/${name}.png` });
}

/** Signs up and verifies through the API, then opens a signed-in page (`signInPage`). Returns the API client too. */
export async function signedIn(
  e2e: E2E,
  prefix: string,
  name = "Ada Lovelace",
  options: { onboarded?: boolean } = {},
): Promise<{ page: Page; api: ApiClient; email: string }> {
  const email = uniqueEmail(prefix);
  const api = await signUpVerified(e2e.baseUrl, e2e.app.inbox!, email, PASSWORD, name);
  return { page: await signInPage(e2e, email, options), api, email };
}

/**
 * Every first-minutes screen seen (features/onboarding): journeys about something else start on a quiet
 * app; onboarding.e2e.test.ts meets them as a new user does.
 */
export const ONBOARDED = {
  profileSetup: true,
  featureTour: true,
  introduceProductSplitting: true,
  demoModal: true,
} as const;

/** For a user who signed up through the form: marks the first-minutes screens seen and reloads. */
export async function skipOnboarding(page: Page): Promise<void> {
  const status = await page.evaluate(async (onboarding) => {
    const response = await fetch("/api/me", {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ onboarding }),
    });
    return response.status;
  }, ONBOARDED);
  expect(status, "onboarding seen").toBe(200);
  await page.reload();
}

/**
 * A new browser page signed in as an existing, verified user, on /projects (`onboarded: false` leaves
 * the first-minutes screens to come, as for a new user). The session is its own, made
 * through the sign-in API and handed to the browser as its cookies: the sign-in form has journeys of its
 * own (auth, sharing, recent-login), and loading it for each of the suite's users cost a page load each.
 */
export async function signInPage(
  e2e: E2E,
  email: string,
  options: { onboarded?: boolean } = {},
): Promise<Page> {
  const session = new ApiClient(e2e.baseUrl);
  const signIn = await session.post("/api/auth/sign-in/email", { email, password: PASSWORD });
  expect(signIn.status, "sign-in").toBe(200);
  if (options.onboarded !== false) {
    const seen = await session.patch("/api/me", { onboarding: ONBOARDED });
    expect(seen.status, "onboarding seen").toBe(200);
  }
  const page = await e2e.newPage();
  await page
    .context()
    .addCookies(session.cookieList().map((cookie) => ({ ...cookie, url: e2e.baseUrl, httpOnly: true })));
  await page.goto("/projects");
  return page;
}

/**
 * Starts watching the page for `text` and returns a question: was it ever on screen since? For what
 * must never show, even for a moment (a message that flashes and goes is still seen by people).
 */
export async function watchForText(page: Page, text: string): Promise<() => Promise<boolean>> {
  const flag = `__seen_${Math.random().toString(36).slice(2)}`;
  await page.evaluate(
    ({ flag, text }) => {
      const record = window as unknown as Record<string, boolean>;
      const check = () => {
        if (document.body.textContent.includes(text)) record[flag] = true;
      };
      check();
      new MutationObserver(check).observe(document.body, {
        childList: true,
        subtree: true,
        characterData: true,
      });
    },
    { flag, text },
  );
  return () => page.evaluate((flag) => Boolean((window as unknown as Record<string, boolean>)[flag]), flag);
}

/**
 * The mode the overlay inside a snapshot frame is in: null before its script has started, "browse"
 * until the app's `overlay:mode` message reaches it. A click in the frame is only picked (comment or
 * inspect) once this says so; the frame's content is visible well before that.
 */
export function overlayMode(frame: Frame): Promise<string | null> {
  return frame.evaluate(
    () =>
      (window as unknown as { __redlineOverlay?: { state(): { mode: string } } }).__redlineOverlay?.state()
        .mode ?? null,
  );
}

export async function newProject(api: ApiClient, title: string, type = "web"): Promise<string> {
  const created = await api.post("/api/projects", { title, type });
  expect(created.status).toBe(201);
  return created.body.data.id as string;
}

/** A small valid PDF with two pages of text, its cross-reference table computed here. */
export function twoPagePdf(): Buffer {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 5 0 R /Resources << /Font << /F1 7 0 R >> >> >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 6 0 R /Resources << /Font << /F1 7 0 R >> >> >>",
    "BT /F1 24 Tf 40 100 Td (Page one) Tj ET",
    "BT /F1 24 Tf 40 100 Td (Page two) Tj ET",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    const isStream = object.startsWith("BT");
    body += isStream
      ? `${index + 1} 0 obj\n<< /Length ${object.length} >>\nstream\n${object}\nendstream\nendobj\n`
      : `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

export interface Site {
  url: string;
  close(): Promise<void>;
}

/** A fixture site on a free port of 127.0.0.1, answered by `listener`. */
export function serveSite(listener: http.RequestListener): Promise<Site> {
  const server = http.createServer(listener);
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}

/**
 * For a describe block: the app with its capture worker, and a fixture site answering `html` at every path,
 * both started before its tests and closed after them. Read `e2e` and `site` inside the tests.
 */
export function capturingAppAndSite(html: string): { e2e: E2E; site: Site } {
  const started = {} as { e2e: E2E; site: Site };
  beforeAll(async () => {
    started.e2e = await startE2E({ config: { captureWorker: true } });
    started.site = await serveSite((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" }).end(html);
    });
  });
  afterAll(async () => {
    await started.site?.close();
    await started.e2e?.close();
  });
  return started;
}

/** Waits until the capture worker has made the version's snapshot. */
export async function waitForCapture(api: ApiClient, versionId: string): Promise<void> {
  await expect
    .poll(async () => (await api.get(`/api/versions/${versionId}`)).body.data.status, { timeout: 60_000 })
    .toBe("ready");
}

/** A new project with `url` added as a page and captured; where its review view is. */
export async function capturedProject(api: ApiClient, url: string, title = "Acme") {
  const projectId = await newProject(api, title);
  const added = await api.post(`/api/projects/${projectId}/pages`, { url });
  expect(added.status).toBe(202);
  const { pageId, versionId } = added.body.data as { pageId: string; versionId: string };
  await waitForCapture(api, versionId);
  return {
    projectId,
    pageId: pageId,
    versionId: versionId,
    path: `/project/${projectId}/${pageId}/${versionId}`,
  };
}

export async function addMember(owner: ApiClient, projectId: string, email: string, access: string) {
  expect((await owner.post(`/api/projects/${projectId}/members`, { email, access })).status).toBe(201);
}

/**
 * Opens a review path for the fixture's "Acme shoes" page, wide enough that the 1280 px snapshot is
 * shown at full size beside the panel, and returns the snapshot's frame. With `mode`, also waits until
 * the overlay is in that mode: before the app's message reaches it, a click in the frame goes to the
 * page and is not picked.
 */
export async function openSnapshot(page: Page, path: string, mode?: "comment" | "inspect"): Promise<Frame> {
  await page.setViewportSize({ width: 1760, height: 1000 });
  await page.goto(path);
  const iframe = page.locator('iframe[title="Page snapshot"]');
  await iframe.waitFor();
  const frame = await (await iframe.elementHandle())!.contentFrame();
  if (!frame) throw new Error("no snapshot frame");
  await frame.getByRole("heading", { name: "Acme shoes" }).waitFor();
  if (mode) await expect.poll(() => overlayMode(frame)).toBe(mode);
  return frame;
}

/** Waits for the video player, plays it for most of a second: it is `seconds` long (about 3 s), plays, and errs not. */
export async function expectVideoPlays(
  player: Locator,
  timeout: number,
  seconds: [number, number] = [2.5, 5],
) {
  await player.waitFor({ timeout });
  const played = await player.evaluate(async (element) => {
    const video = element as HTMLVideoElement;
    if (video.readyState < 1)
      await new Promise((resolve) => video.addEventListener("loadedmetadata", resolve, { once: true }));
    await video.play();
    await new Promise((resolve) => setTimeout(resolve, 800));
    return { duration: video.duration, currentTime: video.currentTime, error: video.error?.code ?? null };
  });
  expect(played.error).toBeNull();
  expect(played.duration).toBeGreaterThan(seconds[0]);
  expect(played.duration).toBeLessThan(seconds[1]);
  expect(played.currentTime).toBeGreaterThan(0.2);
}

/**
 * A Chromium with fake media devices for the video journeys: a camera's test pattern and a microphone's
 * beep accepted without a prompt, the tab's capture accepted too, and a video that plays without a click.
 */
export function launchWithMedia(): Promise<Browser> {
  return launchBrowser([
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    "--auto-accept-this-tab-capture",
    "--autoplay-policy=no-user-gesture-required",
  ]);
}

/**
 * A visitor of a page carrying the widget opens it, clicks the element `target` names and writes `note`;
 * the widget's element and its report dialog.
 */
export async function startWidgetReport(page: Page, target: string, note: string) {
  const widget = page.locator("redline-widget");
  await widget.getByRole("button", { name: "Report a bug" }).click();
  await page.locator("redline-widget .pick-layer").waitFor();
  const box = (await page.locator(target).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.up();
  const dialog = widget.getByRole("dialog", { name: "Report a bug" });
  await dialog.getByLabel("Note").fill(note);
  return { widget, dialog };
}
