/**
 * Refer & Earn in Chromium: a person opens Refer & Earn from the profile menu and copies their link; a
 * friend follows it in their own browser, signs up and confirms their address from the mail; the referrer,
 * opening Refer & Earn again, sees the friend and the month of Standard earned — and their plan shows it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E, uniqueEmail } from "./harness.ts";
import { PASSWORD, shot, signedIn, skipOnboarding } from "./helpers.ts";

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E({ config: { plansEnabled: true } });
});
afterAll(() => e2e.close());

describe("Refer & Earn", () => {
  it("rewards the referrer with a month of Standard once a friend joins through their link", async () => {
    const ada = await signedIn(e2e, "referrer", "Ada Lovelace");
    const { page } = ada;
    const openReferral = async () => {
      await page.getByRole("button", { name: "Profile menu" }).click();
      await page.getByRole("menuitem", { name: "Refer & Earn" }).click();
      return page.getByRole("dialog", { name: "Refer & Earn" });
    };
    let dialog = await openReferral();
    const field = dialog.getByLabel("Your referral link");
    await expect.poll(() => field.inputValue()).toMatch(/\/r\/[23456789a-z]{8}$/);
    const link = await field.inputValue();
    await expect
      .poll(() => dialog.getByText("No friends have joined through your link yet.").count())
      .toBe(1);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await dialog.getByRole("button", { name: "Copy link" }).click();
    await dialog.getByRole("button", { name: "Link copied" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await shot(page, "refer-and-earn");
    await page.keyboard.press("Escape");

    // A friend follows the link in their own browser and signs up.
    const friend = await e2e.newPage();
    const email = uniqueEmail("friend");
    await friend.goto(link);
    await friend.waitForURL((url) => url.pathname === "/signup");
    await friend.getByLabel("Full name").fill("Grace Hopper");
    await friend.getByLabel("Email", { exact: true }).fill(email);
    await friend.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await friend.getByRole("button", { name: "Create account" }).click();
    await friend.getByText("We sent a verification link to").waitFor();

    dialog = await openReferral();
    await expect.poll(() => dialog.getByText("1 friend", { exact: true }).count()).toBe(1);
    await dialog
      .getByText("A month is added as soon as your friend confirms their e-mail address.")
      .waitFor();
    await page.keyboard.press("Escape");

    const mail = await e2e.app.inbox!.waitFor(
      (message) => message.to.includes(email) && Boolean(message.link?.includes("verifyEmail")),
    );
    await friend.goto(mail.link!);
    await friend.waitForURL((url) => url.pathname === "/projects");
    await skipOnboarding(friend);

    await page.reload();
    dialog = await openReferral();
    await expect.poll(() => dialog.getByText("1 month of Standard (up to 12)").count()).toBe(1);
    await dialog.getByText(/Your Standard plan from referrals runs until/).waitFor();
    expect((await ada.api.get("/api/me")).body.data.privilege).toBe("standard");
  });
});
