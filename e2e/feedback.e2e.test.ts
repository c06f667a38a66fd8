/**
 * Help menu (SPEC §2, issue #16) in a real browser: Send Feedback with a screenshot dragged out of the app
 * reaches FEEDBACK_EMAIL with the picture attached, looking like the screen did; What's New lists the
 * releases of CHANGELOG.md; Support docs opens the guide shipped with the app.
 */
import { FEEDBACK_TEXTS } from "@redline/shared";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E } from "./harness.ts";
import { newProject, shot, signedIn } from "./helpers.ts";

const FEEDBACK = "feedback@redline.example";
const REGION = { x: 40, y: 70, width: 520, height: 300 };

/** Mean absolute difference per channel (0–255) between two images of the same size. */
async function meanDifference(a: Buffer, b: Buffer): Promise<number> {
  const [left, right] = await Promise.all(
    [a, b].map((image) => sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true })),
  );
  expect([right!.info.width, right!.info.height]).toEqual([left!.info.width, left!.info.height]);
  let total = 0;
  for (let i = 0; i < left!.data.length; i++) total += Math.abs(left!.data[i]! - right!.data[i]!);
  return total / left!.data.length;
}

describe("help menu", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ config: { supportEmail: "help@redline.example", feedbackEmail: FEEDBACK } });
  });
  afterAll(() => e2e?.close());

  it("sends feedback with a dragged screenshot of the app to the feedback address", async () => {
    const { page, api, email } = await signedIn(e2e, "feedback");
    await newProject(api, "Marketing site");
    await newProject(api, "Docs site");
    await page.reload();
    await page.getByText("Docs site").first().waitFor();
    // What the screen shows there, as Chromium paints it, to compare the screenshot with.
    const painted = await page.screenshot({ clip: REGION });

    await page.getByRole("button", { name: "Help menu" }).click();
    await page.getByRole("menuitem", { name: "Send Feedback" }).click();
    const dialog = page.getByRole("dialog", { name: "Send Feedback" });
    await dialog
      .getByPlaceholder(FEEDBACK_TEXTS.placeholder)
      .fill("The project cards could show the page count.");
    await dialog.getByText(FEEDBACK_TEXTS.dragHint).waitFor();
    await dialog.getByRole("button", { name: FEEDBACK_TEXTS.takeScreenshot }).click();
    await dialog.waitFor({ state: "detached" });
    const overlay = page.getByTestId("screenshot-selector");
    await overlay.waitFor();
    await page.mouse.move(REGION.x, REGION.y);
    await page.mouse.down();
    await page.mouse.move(REGION.x + REGION.width / 2, REGION.y + REGION.height / 2, { steps: 5 });
    await shot(page, "feedback-00-selecting");
    await page.mouse.move(REGION.x + REGION.width, REGION.y + REGION.height, { steps: 5 });
    await page.mouse.up();
    await dialog.getByRole("img", { name: "Screenshot 1" }).waitFor({ timeout: 20_000 });
    await expect.poll(() => overlay.count()).toBe(0);
    await dialog.getByRole("button", { name: FEEDBACK_TEXTS.takeAnother }).waitFor();
    await shot(page, "feedback-01-dialog");
    await dialog.getByRole("button", { name: FEEDBACK_TEXTS.submit }).click();
    await dialog.getByText(FEEDBACK_TEXTS.thanks).waitFor();
    await dialog.getByRole("button", { name: FEEDBACK_TEXTS.sendAnother }).waitFor();
    await shot(page, "feedback-02-thanks");

    const mail = await e2e.app.inbox!.waitFor((m) => m.to.includes(FEEDBACK), 20_000);
    expect(mail.text).toContain("The project cards could show the page count.");
    expect(mail.text).toContain("Page: /projects");
    expect(mail.headers["reply-to"]).toContain(email);
    expect(mail.attachments).toHaveLength(1);
    const [attached] = mail.attachments;
    expect(attached).toMatchObject({ filename: "screenshot-1.png", contentType: "image/png" });
    const meta = await sharp(attached!.content).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", REGION.width, REGION.height]);
    // Faithful: the region as snapdom drew it is the region as Chromium painted it, give or take
    // anti-aliasing (a blank or shifted picture differs by tens).
    const difference = await meanDifference(painted, attached!.content);
    console.info(`feedback screenshot: mean difference ${difference.toFixed(2)} / 255`);
    expect(difference).toBeLessThan(6);
  });

  it("asks for feedback 10 s after load, once, when the user owns two projects and earned it", async () => {
    const { page, api } = await signedIn(e2e, "provide");
    await newProject(api, "First");
    await newProject(api, "Second");
    // As the web app sets it with the first page (earnsFeedbackWalkthrough); a capture is not the point here.
    expect((await api.patch("/api/me", { onboarding: { provideFeedbackWT: true } })).status).toBe(200);
    await page.reload();
    const loaded = Date.now();
    const modal = page.getByRole("dialog", { name: "How is Redline working for you?" });
    await modal.waitFor({ timeout: 20_000 });
    expect(Date.now() - loaded).toBeGreaterThan(9_000);
    await shot(page, "feedback-05-provide");
    await modal.getByRole("button", { name: "Send Feedback" }).click();
    await page.getByRole("dialog", { name: "Send Feedback" }).waitFor();
    await expect
      .poll(async () => (await api.get("/api/me")).body.data.onboarding)
      .toMatchObject({ provideFeedbackWT: true, provideFeedbackModal: true });
    await page.reload();
    await page.getByText("Second").first().waitFor();
    await page.waitForTimeout(11_000);
    expect(await modal.count()).toBe(0);
  });

  it("lists the releases in What's New and opens the user guide from Support docs", async () => {
    const { page } = await signedIn(e2e, "whatsnew");
    await page.getByRole("button", { name: "Help menu" }).click();
    await page.getByRole("menuitem", { name: "What's New" }).click();
    const dialog = page.getByRole("dialog", { name: "What's New" });
    const releases = dialog.getByRole("list", { name: "Releases" });
    await releases.getByRole("heading", { name: /^0\.4\.0/ }).waitFor();
    await releases.getByRole("heading", { name: /^0\.1\.0/ }).waitFor();
    await releases.getByText(/Help → Send Feedback/).waitFor();
    await page.waitForTimeout(300); // the modal's opening animation, for the screenshot
    await shot(page, "feedback-03-whats-new");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    await page.getByRole("button", { name: "Help menu" }).click();
    await page.getByRole("menuitem", { name: "Support docs" }).click();
    await page.waitForURL((url) => url.pathname === "/help");
    await page.getByRole("heading", { name: "Redline user guide" }).waitFor();
    await page.getByRole("heading", { name: "Bug tracking" }).waitFor();
    expect(await page.title()).toContain("User guide");
    await shot(page, "feedback-04-help");
  });
});
