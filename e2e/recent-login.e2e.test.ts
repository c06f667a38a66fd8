/**
 * SPEC §5: a password change that needs a recent sign-in signs the user out and sends them to
 * `/?goto=/profile`. The app here treats every session as old (fresh age 0).
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { type E2E, startE2E, uniqueEmail } from "./harness.ts";
import { skipOnboarding } from "./helpers.ts";

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E({ config: { authFreshAgeSeconds: 0 } });
});

afterAll(() => e2e.close());

describe("recent login", () => {
  it("asks to sign in again before a password change and comes back to /profile", async () => {
    const page = await e2e.newPage();
    const email = uniqueEmail("stale");
    const password = "correct horse battery";
    await page.goto("/signup");
    await page.getByLabel("Full name").fill("Mary Jackson");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Create account" }).click();
    const mail = await e2e.app.inbox!.waitFor(
      (message) => message.to.includes(email) && Boolean(message.link?.includes("verifyEmail")),
    );
    await page.goto(mail.link!);
    await page.waitForURL((url) => url.pathname === "/projects");
    await skipOnboarding(page);

    await page.goto("/profile");
    await page.getByLabel("Current password").fill(password);
    await page.getByLabel("New password", { exact: true }).fill("a different secret");
    await page.getByRole("button", { name: "Update password" }).click();
    await page.waitForURL((url) => url.pathname === "/" && url.searchParams.get("goto") === "/profile");

    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/profile");
    await page.getByRole("heading", { name: "Account Settings" }).waitFor();
  });
});
