/**
 * Issue #36 items 11 and 18 in a real browser: a paste longer than the feedback box allows is kept whole,
 * the box says how much is allowed and Submit waits until it fits; in the Share dialog an address typed
 * while the previous share is still "Sharing..." survives that share's answer and the reload after it.
 */
import { FEEDBACK_TEXTS, MAX_SUPPORT_MESSAGE, SHARING_MESSAGES } from "@redline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpVerified } from "../apps/server/src/testing/http-client.ts";
import { type E2E, startE2E, uniqueEmail } from "./harness.ts";
import { newProject, PASSWORD, shot, signedIn } from "./helpers.ts";

const FEEDBACK = "feedback@redline.example";

describe("text limits and forms that keep what was typed", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ config: { feedbackEmail: FEEDBACK } });
  });
  afterAll(() => e2e?.close());

  it("keeps a feedback paste over the limit, says what is allowed, and sends once it fits", async () => {
    const { page } = await signedIn(e2e, "limits-feedback");
    await page.getByRole("button", { name: "Help menu" }).click();
    await page.getByRole("menuitem", { name: "Send Feedback" }).click();
    const dialog = page.getByRole("dialog", { name: "Send Feedback" });
    const box = dialog.getByPlaceholder(FEEDBACK_TEXTS.placeholder);
    const submit = dialog.getByRole("button", { name: FEEDBACK_TEXTS.submit });
    await box.focus();
    // As a paste lands: one insertion, which a maxlength would cut without a word.
    await page.keyboard.insertText("word ".repeat(1200).trim());
    expect((await box.inputValue()).length).toBe(5999);
    await dialog.getByRole("alert").getByText("The feedback can be at most 5,000 characters.").waitFor();
    await dialog.getByText("5,999 / 5,000").waitFor();
    expect(await submit.isDisabled()).toBe(true);
    expect(await box.getAttribute("aria-invalid")).toBe("true");
    await shot(page, "text-limit-01-feedback-over");

    await box.fill("word ".repeat(MAX_SUPPORT_MESSAGE / 5).trim());
    await dialog.getByText("4,999 / 5,000").waitFor();
    expect(await dialog.getByRole("alert").count()).toBe(0);
    await submit.click();
    await dialog.getByText(FEEDBACK_TEXTS.thanks).waitFor();
    const mail = await e2e.app.inbox!.waitFor((m) => m.to.includes(FEEDBACK), 20_000);
    expect(mail.text).toContain("word word");
  });

  it("keeps a second address typed while the first share is still 'Sharing...'", async () => {
    const owner = await signedIn(e2e, "limits-owner", "Olive Owner");
    const projectId = await newProject(owner.api, "Keep typing", "image");
    const graceEmail = uniqueEmail("limits-grace");
    await signUpVerified(e2e.baseUrl, e2e.app.inbox!, graceEmail, PASSWORD, "Grace Hopper");
    const bobEmail = uniqueEmail("limits-bob");

    // Hold the first share's answer until the second address is typed.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let shares = 0;
    await owner.page.route(`**/api/projects/${projectId}/members`, async (route) => {
      if (route.request().method() === "POST" && shares++ === 0) await held;
      await route.continue();
    });

    await owner.page.reload();
    const card = owner.page.getByRole("list", { name: "Projects" }).getByRole("listitem").first();
    await card.hover();
    await card.getByRole("button", { name: "Share Keep typing" }).click();
    const dialog = owner.page.getByRole("dialog", { name: "Share “Keep typing”" });
    const people = dialog.getByRole("list", { name: "People with access" });
    await people.getByText("Olive Owner").waitFor();
    const address = dialog.getByLabel("Email address");
    await address.fill(graceEmail);
    await dialog.getByRole("button", { name: "Share", exact: true }).click();
    await dialog.getByRole("button", { name: "Sharing..." }).waitFor();
    await address.fill(bobEmail);
    await shot(owner.page, "text-limit-02-typing-while-sharing");
    release();

    // Grace is added and the list reloads; the address typed meanwhile stays.
    await owner.page.getByText(SHARING_MESSAGES.shared, { exact: true }).waitFor();
    await people.getByRole("listitem").filter({ hasText: "Grace Hopper" }).waitFor();
    await dialog.getByRole("button", { name: "Share", exact: true }).waitFor();
    await owner.page.waitForLoadState("networkidle");
    expect(await address.inputValue()).toBe(bobEmail);
    await shot(owner.page, "text-limit-03-address-kept");

    // Sent in its turn, it goes once answered.
    await dialog.getByRole("button", { name: "Share", exact: true }).click();
    await people.getByRole("listitem").filter({ hasText: bobEmail }).waitFor();
    await expect.poll(() => address.inputValue()).toBe("");
  });
});
