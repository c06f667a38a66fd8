/**
 * Changing one's e-mail address in a real browser (issue #34 item 1): Account Settings asks with the
 * password, the link is read from the outbox at /dev/mailbox, the old address is told, and afterwards
 * the person signs in with the new address.
 */
import { MESSAGES } from "@redline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpVerified } from "../apps/server/src/testing/http-client.ts";
import { type E2E, startE2E, uniqueEmail } from "./harness.ts";
import { PASSWORD, shot, signInPage, skipOnboarding } from "./helpers.ts";

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});

afterAll(() => e2e.close());

describe("change of e-mail address", () => {
  it("switches the address through the new address's link, then signs in with it", async () => {
    const oldEmail = uniqueEmail("before");
    const newEmail = uniqueEmail("after");
    await signUpVerified(e2e.baseUrl, e2e.app.inbox!, oldEmail, PASSWORD, "Mary Jackson");
    const page = await signInPage(e2e, oldEmail);
    await page.goto("/profile");
    const section = page.getByRole("region", { name: "Email address" });

    // A wrong password is refused in the SPEC's words, and nothing waits.
    await section.getByLabel("New email").fill(newEmail);
    await section.getByLabel("Your password").fill("not my password");
    await section.getByRole("button", { name: "Change email" }).click();
    await section.getByRole("alert").filter({ hasText: "Error: The password is incorrect." }).waitFor();

    await section.getByLabel("Your password").fill(PASSWORD);
    await section.getByRole("button", { name: "Change email" }).click();
    await section.getByText(`Waiting for confirmation: ${newEmail}`).waitFor();
    await section.getByRole("button", { name: "Resend link" }).waitFor();
    await section.getByRole("button", { name: "Cancel change" }).waitFor();
    await shot(page, "email-change-pending");

    // The old address hears of it; the new one gets the link — read here from the mailbox page.
    await e2e.app.inbox!.waitFor((m) => m.to.includes(oldEmail) && m.text.includes(newEmail));
    await e2e.app.inbox!.waitFor((m) => m.to.includes(newEmail));
    const mail = e2e.app.inbox!.mails.find((m) => m.to.includes(newEmail))!;
    expect(mail.subject).toBe("Confirm your new e-mail for Redline");
    await page.goto(mail.link!);
    await page.getByText(MESSAGES.emailVerified).first().waitFor();
    await page.waitForURL((url) => url.pathname === "/profile");
    await page.getByRole("region", { name: "Profile" }).getByLabel("Email").first().waitFor();
    await expect.poll(() => page.getByText(`You sign in with ${newEmail}.`).count()).toBe(1);

    // The link worked once: opened again, it is refused in the SPEC's words.
    await page.goto(mail.link!);
    await page
      .getByRole("alert")
      .filter({ hasText: "Error: This link is not valid, or it has already been used." })
      .waitFor();
    await shot(page, "email-change-used-link");

    // A fresh browser signs in with the new address.
    const fresh = await e2e.newPage();
    await fresh.goto("/");
    await fresh.getByLabel("Email", { exact: true }).fill(newEmail);
    await fresh.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await fresh.getByRole("button", { name: "Sign in", exact: true }).click();
    await fresh.waitForURL((url) => url.pathname === "/projects");
  });
});

describe("through the embedded outbox", () => {
  let outbox: E2E;
  beforeAll(async () => {
    outbox = await startE2E({ smtp: false });
  });
  afterAll(() => outbox.close());

  it("follows the link from /dev/mailbox", async () => {
    const oldEmail = uniqueEmail("outbox-before");
    const newEmail = uniqueEmail("outbox-after");
    const page = await outbox.newPage();
    await page.goto("/signup");
    await page.getByLabel("Full name").fill("Dorothy Vaughan");
    await page.getByLabel("Email", { exact: true }).fill(oldEmail);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("We sent a verification link to").waitFor();
    await page.goto("/dev/mailbox");
    await page
      .getByRole("article")
      .filter({ hasText: `To: ${oldEmail}` })
      .getByRole("link", { name: /user-action\?mode=verifyEmail/ })
      .first()
      .click();
    await page.waitForURL((url) => url.pathname === "/projects");
    await skipOnboarding(page);

    await page.goto("/profile");
    const section = page.getByRole("region", { name: "Email address" });
    await section.getByLabel("New email").fill(newEmail);
    await section.getByLabel("Your password").fill(PASSWORD);
    await section.getByRole("button", { name: "Change email" }).click();
    await section.getByText(`Waiting for confirmation: ${newEmail}`).waitFor();

    await page.goto("/dev/mailbox");
    await page
      .getByRole("article")
      .filter({ hasText: `To: ${oldEmail}` })
      .filter({ hasText: "Your Redline e-mail address is being changed" })
      .first()
      .waitFor();
    await page
      .getByRole("article")
      .filter({ hasText: `To: ${newEmail}` })
      .getByRole("link", { name: /user-action\?mode=verifyAndChangeEmail/ })
      .first()
      .click();
    await page.waitForURL((url) => url.pathname === "/profile");
    await page.getByText(`You sign in with ${newEmail}.`).waitFor();

    const fresh = await outbox.newPage();
    await fresh.goto("/");
    await fresh.getByLabel("Email", { exact: true }).fill(newEmail);
    await fresh.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await fresh.getByRole("button", { name: "Sign in", exact: true }).click();
    await fresh.waitForURL((url) => url.pathname === "/projects");
  });
});
