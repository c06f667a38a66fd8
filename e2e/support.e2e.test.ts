/**
 * Contact Us and the Team plan request (SPEC §2, §7, §8; issue #16) in a real browser: each reaches the
 * installation's support address over SMTP, with the §8 confirmation on screen.
 */
import { SUPPORT_MESSAGES } from "@redline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E } from "./harness.ts";
import { shot, signedIn } from "./helpers.ts";

const SUPPORT = "help@redline.example";

describe("support", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ config: { supportEmail: SUPPORT } });
  });
  afterAll(() => e2e?.close());

  it("sends Contact Us from the profile menu and a Team plan request from /upgrade", async () => {
    const { page, email } = await signedIn(e2e, "contact");
    await page.getByRole("button", { name: "Profile menu" }).click();
    await page.getByRole("menuitem", { name: "Contact Us" }).click();
    const dialog = page.getByRole("dialog", { name: "Contact Us" });
    await dialog.getByText(`They will answer at ${email}.`).waitFor();
    await dialog.getByLabel("Subject").fill("Invoices");
    await dialog.getByLabel("Message").fill("Where do I find last month's invoice?");
    await shot(page, "support-01-contact");
    await dialog.getByRole("button", { name: "Send message" }).click();
    await page.getByText(SUPPORT_MESSAGES.contactSent, { exact: true }).waitFor();
    await dialog.waitFor({ state: "detached" });
    const mail = await e2e.app.inbox!.waitFor(
      (m) => m.to.includes(SUPPORT) && m.subject.includes("Invoices"),
    );
    expect(mail.text).toContain("Where do I find last month's invoice?");
    expect(mail.headers["reply-to"]).toContain(email);

    // The request sits under the plans, which show only where plans are on.
    e2e.app.ctx.config.plansEnabled = true;
    await page.goto("/upgrade");
    await page.getByRole("button", { name: "Request a Team plan" }).click();
    const request = page.getByRole("dialog", { name: "Request a Team plan" });
    await request.getByLabel("Company or team").fill("Analytical Engines");
    await request.getByLabel("People in the team").fill("12");
    await request.getByRole("button", { name: "Send request" }).click();
    await page.getByText(SUPPORT_MESSAGES.requestSent, { exact: true }).waitFor();
    const requested = await e2e.app.inbox!.waitFor((m) => m.subject.includes("Analytical Engines"));
    expect(requested.text).toContain("teamSize: 12");
  });
});
