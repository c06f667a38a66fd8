/**
 * Without SMTP, mail lands in the embedded outbox; /dev/mailbox shows it with clickable links, and
 * the verification link from there signs the new user in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E, uniqueEmail } from "./harness.ts";
import { skipOnboarding } from "./helpers.ts";

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E({ smtp: false });
});

afterAll(() => e2e.close());

describe("outbox", () => {
  it("verifies a new account from the link in /dev/mailbox", async () => {
    const page = await e2e.newPage();
    const email = uniqueEmail("outbox");
    await page.goto("/signup");
    await page.getByLabel("Full name").fill("Annie Easley");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("We sent a verification link to").waitFor();

    await page.goto("/dev/mailbox");
    await page.getByRole("heading", { name: "Mailbox", level: 1 }).waitFor();
    await expect.poll(() => page.title()).toBe("Mailbox | Redline");
    const mail = page.getByRole("article").filter({ hasText: `To: ${email}` });
    await mail.getByRole("heading", { name: "Verify your e-mail for Redline" }).waitFor();

    await mail
      .getByRole("link", { name: /user-action\?mode=verifyEmail/ })
      .first()
      .click();
    await page.waitForURL((url) => url.pathname === "/projects");
    await skipOnboarding(page);
    await page.getByRole("banner").getByRole("link", { name: "Team" }).waitFor();
  });
});
