/**
 * Account journeys in a real browser against the real app: sign-up with the verification mail,
 * sign-out and the `?goto=` redirect, password reset, the not-found page.
 */
import { MESSAGES } from "@redline/shared";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E, uniqueEmail } from "./harness.ts";
import { skipOnboarding } from "./helpers.ts";

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});

afterAll(() => e2e.close());

const PASSWORD = "correct horse battery";

function pathOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

async function signUpAndVerify(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto("/signup");
  await page.getByLabel("Full name").fill("Grace Hopper");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByText("We sent a verification link to").waitFor();
  const mail = await e2e.app.inbox!.waitFor(
    (message) => message.to.includes(email) && Boolean(message.link?.includes("verifyEmail")),
  );
  await page.goto(mail.link!);
  await page.waitForURL((url) => url.pathname === "/projects");
  await skipOnboarding(page);
  await page.getByRole("banner").getByRole("link", { name: "Projects", exact: true }).waitFor();
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Profile menu" }).click();
  await page.getByRole("menuitem", { name: "Sign Out" }).click();
  await page.waitForURL((url) => url.pathname === "/" && url.search === "");
  await page.getByRole("heading", { name: "Sign in to Redline" }).waitFor();
}

describe("accounts", () => {
  it("signs up, follows the verification link from the mail and lands signed in at /projects", async () => {
    const page = await e2e.newPage();
    const email = uniqueEmail("signup");
    // The app's own scripts arrive compressed at build time (brotli for Chromium), all but the tiny ones.
    const scripts = new Map<string, string>();
    page.on("response", (response) => {
      if (!/\/assets\/[^/]+\.js$/.test(new URL(response.url()).pathname)) return;
      const headers = response.headers();
      const small = Number(headers["content-length"] ?? Infinity) < 1024;
      scripts.set(response.url(), headers["content-encoding"] ?? (small ? "small" : "none"));
    });
    await page.goto("/signup");
    await page.getByRole("heading", { name: "Create your account" }).waitFor();
    expect(scripts.size).toBeGreaterThan(0);
    expect([...scripts.values()]).toContain("br");
    expect([...scripts.values()].filter((encoding) => encoding !== "br" && encoding !== "small")).toEqual([]);
    await expect.poll(() => page.title()).toBe("Sign up | Redline");
    await page.getByLabel("Full name").fill("Grace Hopper");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText(`We sent a verification link to ${email}`).waitFor();

    // Unverified: protected paths lead back to the "verify your e-mail" state, which can resend.
    await page.goto("/profile");
    await page.waitForURL((url) => url.pathname === "/signup");
    await page.getByRole("button", { name: "Resend verification email" }).click();
    await page.getByText(MESSAGES.verificationEmailSent, { exact: true }).waitFor();

    const mail = await e2e.app.inbox!.waitFor(
      (message) => message.to.includes(email) && Boolean(message.link?.includes("verifyEmail")),
    );
    await page.goto(mail.link!);
    await page.waitForURL((url) => url.pathname === "/projects");

    await page.getByText(MESSAGES.emailVerified, { exact: true }).waitFor();
    // A new user meets the profile setup first (onboarding.e2e.test.ts); this journey is about the shell.
    await page.getByRole("dialog", { name: "Set up your profile" }).waitFor();
    await skipOnboarding(page);
    const header = page.getByRole("banner");
    expect(await header.evaluate((element) => element.getBoundingClientRect().height)).toBe(55);
    await header.getByRole("button", { name: "Notifications" }).waitFor();
    await header.getByRole("button", { name: "Messages" }).waitFor();
    await expect.poll(() => page.title()).toBe("Projects | Redline");

    // A verified user visiting / or /signup goes on to the app.
    await page.goto("/signup");
    await page.waitForURL((url) => url.pathname === "/projects");
  });

  it("signs out to /, sends a protected visit to /?goto=, and returns there after sign-in", async () => {
    const page = await e2e.newPage();
    const email = uniqueEmail("goto");
    await signUpAndVerify(page, email);
    await signOut(page);

    await page.goto("/profile");
    await page.waitForURL((url) => url.pathname === "/" && url.searchParams.get("goto") === "/profile");
    expect(pathOf(page)).toMatch(/^\/\?goto=(%2F|\/)profile$/);
    await expect.poll(() => page.title()).toBe("Sign in | Redline");

    await signIn(page, email, PASSWORD);
    await page.waitForURL((url) => url.pathname === "/profile");
    await page.getByRole("heading", { name: "Account Settings" }).waitFor();
    await expect.poll(() => page.title()).toBe("Account Settings | Redline");
  });

  it("never follows an off-site ?goto= after sign-in", async () => {
    const page = await e2e.newPage();
    const email = uniqueEmail("open-redirect");
    await signUpAndVerify(page, email);
    await signOut(page);

    await page.goto("/?goto=//evil.example.com/steal");
    await signIn(page, email, PASSWORD);
    await page.waitForURL((url) => url.pathname === "/projects");
    expect(new URL(page.url()).origin).toBe(e2e.baseUrl);
  });

  it("resets a forgotten password from the mail; the old password stops working", async () => {
    const page = await e2e.newPage();
    const email = uniqueEmail("reset");
    await signUpAndVerify(page, email);
    await signOut(page);

    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL((url) => url.pathname === "/forgot-password");
    const emailField = page.getByLabel("Email", { exact: true });
    await emailField.fill(email);
    expect(await emailField.inputValue()).toBe(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByText("If an account exists for").waitFor();

    const mail = await e2e.app.inbox!.waitFor(
      (message) => message.to.includes(email) && Boolean(message.link?.includes("resetPassword")),
    );
    await page.goto(mail.link!);
    const newPassword = "a brand new secret";
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByText("Your password has been reset.").waitFor();

    await signIn(page, email, PASSWORD);
    await page.getByRole("alert").filter({ hasText: "Invalid credential" }).waitFor();

    await signIn(page, email, newPassword);
    await page.waitForURL((url) => url.pathname === "/projects");
  });

  it("explains an invalid or used reset code", async () => {
    const page = await e2e.newPage();
    await page.goto("/user-action?mode=resetPassword&oobCode=not-a-real-code");
    await page.getByLabel("New password", { exact: true }).fill("long enough password");
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.getByRole("alert").filter({ hasText: "The link may have expired" }).waitFor();
  });

  it("registers every screen of the spec with its tab title", async () => {
    const page = await e2e.newPage();
    await signUpAndVerify(page, uniqueEmail("routes"));
    const titled: [string, string][] = [
      ["/billing", "Billing"],
      ["/upgrade", "Upgrade"],
      ["/upgrade/confirm/pro-yearly", "Payment summary"],
      ["/offers", "Offers"],
      ["/team", "Team"],
      ["/projects/archived", "Projects"],
      ["/profile/checkout-complete", "Account Settings"],
    ];
    for (const [path, title] of titled) {
      await page.goto(path);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      await expect.poll(() => page.title(), { message: path }).toBe(`${title} | Redline`);
    }

    await page.goto("/payment-success/pro");
    await page.waitForURL((url) => url.pathname === "/billing" && url.search === "?payment_status=success");
    await page.goto("/share");
    await page.waitForURL((url) => url.pathname === "/projects");
    await page.goto("/integration/slack");
    await page.getByRole("heading", { name: "Error: 400" }).waitFor();

    await page.getByRole("button", { name: "Help menu" }).click();
    await page.getByRole("menuitem", { name: "Keyboard Shortcuts" }).click();
    const drawer = page.getByRole("dialog", { name: "Keyboard Shortcuts" });
    await drawer.getByText("Edit mode").waitFor();
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
  });

  it("tells the user when the connection drops and when it is back", async () => {
    const page = await e2e.newPage();
    await page.goto("/");
    await page.getByRole("heading", { name: "Sign in to Redline" }).waitFor();
    await page.context().setOffline(true);
    await page.getByRole("alert").filter({ hasText: MESSAGES.offline }).waitFor();
    await page.context().setOffline(false);
    await page.getByRole("status").filter({ hasText: MESSAGES.backOnline }).waitFor();
    await page.getByText(MESSAGES.offline).waitFor({ state: "detached" });
  });

  it("shows the not-found page with a way home", async () => {
    const page = await e2e.newPage();
    await page.goto("/no/such/path");
    await page.getByRole("heading", { name: "Error: 404" }).waitFor();
    await expect.poll(() => page.title()).toBe("Error: 404 | Redline");

    // Home is /projects; signed out, that asks for sign-in first.
    await page.getByRole("link", { name: "Take me home" }).click();
    await page.waitForURL((url) => url.pathname === "/" && url.searchParams.get("goto") === "/projects");
    await page.getByRole("heading", { name: "Sign in to Redline" }).waitFor();
  });
});
