/**
 * Google sign-in in a real browser against the embedded stand-in of Google's OAuth endpoints (issue #34
 * item 1): "Continue with Google" on the sign-in screen, the stand-in's consent page, back signed in on
 * /projects with a new account — which gets the welcome mail, once (read from /dev/mailbox).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E, uniqueEmail } from "./harness.ts";
import { shot } from "./helpers.ts";

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E({ smtp: false });
});

afterAll(() => e2e.close());

describe("Google sign-in", () => {
  it("creates an account through the stand-in's consent page and welcomes it by mail", async () => {
    const email = uniqueEmail("google");
    const page = await e2e.newPage();
    await page.goto("/");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await page.waitForURL((url) => url.pathname === "/dev/google/o/oauth2/v2/auth");
    await page.getByRole("heading", { name: "Choose an account" }).waitFor();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Name").fill("Katherine Johnson");
    await shot(page, "google-consent");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL((url) => url.pathname === "/projects");
    await page.getByRole("banner").getByRole("link", { name: "Projects", exact: true }).waitFor();

    await page.goto("/dev/mailbox");
    const welcome = page
      .getByRole("article")
      .filter({ hasText: `To: ${email}` })
      .filter({ hasText: "Welcome to Redline" });
    await welcome.first().waitFor();

    // Signing in again (from the sign-up screen's button this time) is the same account, no second welcome.
    const again = await e2e.newPage();
    await again.goto("/signup");
    await again.getByRole("button", { name: "Continue with Google" }).click();
    // The consent page, not the sign-up form's own Email field (filled before the navigation under load).
    await again.waitForURL((url) => url.pathname === "/dev/google/o/oauth2/v2/auth");
    await again.getByRole("heading", { name: "Choose an account" }).waitFor();
    await again.getByLabel("Email").fill(email);
    await again.getByRole("button", { name: "Continue" }).click();
    await again.waitForURL((url) => url.pathname === "/projects");
    await page.reload();
    await welcome.first().waitFor();
    expect(await welcome.count()).toBe(1);
  });
});
