/**
 * Account Settings in a real browser: profile update with a photo, password change, e-mail
 * preferences, the Modal's closing rules and account deletion.
 */
import { crc32, deflateSync } from "node:zlib";
import { EMAIL_PREFERENCE_LABELS, MESSAGES } from "@redline/shared";
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

/** The browser globals used inside `evaluate` (this project compiles without the DOM library). */
interface BrowserGlobals {
  document: { body: unknown };
  getComputedStyle(element: unknown): { zIndex: string; maxWidth: string; overflow: string };
}

/** A real PNG of `size`×`size` red pixels, made here so the test needs no fixture file. */
function redPng(size = 16): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3, Buffer.from([229, 56, 59]))]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function bodyOverflow(page: Page): Promise<string> {
  return page.evaluate(() => {
    const browser = globalThis as unknown as BrowserGlobals;
    return browser.getComputedStyle(browser.document.body).overflow;
  });
}

/**
 * Resolves once a visible element whose whole text is `text` has been on the page. Checked in the page
 * at every animation frame, from before the action that shows it: a message shown for one second can
 * fall between two checks of a locator's waitFor(), which backs off to 500 ms plus its round trips.
 */
function watchForText(page: Page, text: string): Promise<unknown> {
  return page.waitForFunction(
    (expected) =>
      Array.from(document.body.querySelectorAll("*")).some(
        (element) =>
          element.textContent?.replace(/\s+/g, " ").trim() === expected && element.checkVisibility(),
      ),
    text,
    { polling: "raf" },
  );
}

async function signUpAndVerify(page: Page, email: string): Promise<void> {
  await page.goto("/signup");
  await page.getByLabel("Full name").fill("Katherine Johnson");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByText("We sent a verification link to").waitFor();
  const mail = await e2e.app.inbox!.waitFor(
    (message) => message.to.includes(email) && Boolean(message.link?.includes("verifyEmail")),
  );
  await page.goto(mail.link!);
  await page.waitForURL((url) => url.pathname === "/projects");
  await skipOnboarding(page);
}

async function openAccountSettings(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Profile menu" }).click();
  await page.getByRole("menuitem", { name: "Account Settings" }).click();
  await page.waitForURL((url) => url.pathname === "/profile");
  await page.getByRole("heading", { name: "Account Settings" }).waitFor();
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

describe("account settings", () => {
  it("updates the display name and photo, and both persist after a reload", async () => {
    const page = await e2e.newPage();
    await signUpAndVerify(page, uniqueEmail("profile"));
    await openAccountSettings(page);

    // Over 5 MB: a warning, and nothing is uploaded.
    await page.getByLabel("Upload photo").setInputFiles({
      name: "huge.png",
      mimeType: "image/png",
      buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
    });
    await page.getByText(MESSAGES.maxFileSize).waitFor();
    expect(await page.getByRole("button", { name: "Save changes" }).isDisabled()).toBe(true);

    await page.getByLabel("Display name").fill("Katherine G. Johnson");
    await page
      .getByLabel("Upload photo")
      .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: redPng() });
    await page.getByText("New photo selected").waitFor();
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText(MESSAGES.profileUpdated, { exact: true }).waitFor();

    await page.reload();
    await page.getByRole("heading", { name: "Account Settings" }).waitFor();
    await expect.poll(() => page.getByLabel("Display name").inputValue()).toBe("Katherine G. Johnson");
    await page.locator('img[src^="/files/avatars/"]').first().waitFor();
  });

  it("saves an e-mail preference at once", async () => {
    const page = await e2e.newPage();
    await signUpAndVerify(page, uniqueEmail("prefs"));
    await openAccountSettings(page);

    const toggle = page.getByRole("switch", { name: EMAIL_PREFERENCE_LABELS.marketing });
    expect(await toggle.getAttribute("aria-checked")).toBe("true");
    // Shown for SNACKBAR_MS.successFlash (1 s) only.
    const saved = watchForText(page, MESSAGES.profileUpdated);
    await toggle.click();
    await saved;
    await page.reload();
    await page.getByRole("switch", { name: EMAIL_PREFERENCE_LABELS.marketing, checked: false }).waitFor();
    expect(
      await page.getByRole("switch", { name: EMAIL_PREFERENCE_LABELS.comments }).getAttribute("aria-checked"),
    ).toBe("true");
  });

  it("changes the password; the new one signs in", async () => {
    const page = await e2e.newPage();
    const email = uniqueEmail("password");
    await signUpAndVerify(page, email);
    await openAccountSettings(page);

    const newPassword = "another long secret";
    await page.getByLabel("Current password").fill(PASSWORD);
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Update password" }).click();
    await page.getByText(MESSAGES.passwordUpdated, { exact: true }).waitFor();

    await page.getByRole("button", { name: "Profile menu" }).click();
    await page.getByRole("menuitem", { name: "Sign Out" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await signIn(page, email, newPassword);
    await page.waitForURL((url) => url.pathname === "/projects");
  });

  it("keeps the modal open on Escape while typing in its password field, closes it otherwise", async () => {
    const page = await e2e.newPage();
    await signUpAndVerify(page, uniqueEmail("modal"));
    await openAccountSettings(page);

    await page.getByRole("button", { name: "Delete account" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    await dialog.waitFor();
    expect(
      await dialog.evaluate(
        (element) => (globalThis as unknown as BrowserGlobals).getComputedStyle(element).zIndex,
      ),
    ).toBe("9009");
    expect(
      await dialog.evaluate(
        (element) => (globalThis as unknown as BrowserGlobals).getComputedStyle(element).maxWidth,
      ),
    ).toBe("580px");
    await expect.poll(() => bodyOverflow(page)).toBe("hidden");

    const password = dialog.getByLabel("Password");
    await password.fill("half typed");
    await password.press("Escape");
    expect(await dialog.getAttribute("data-state")).toBe("open");
    expect(await password.inputValue()).toBe("half typed");

    await dialog.getByRole("button", { name: "Cancel" }).focus();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => bodyOverflow(page)).not.toBe("hidden");

    // The close button and a click on the dimmed background close it too.
    await page.getByRole("button", { name: "Delete account" }).click();
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Delete account" }).click();
    await dialog.waitFor();
    await page.mouse.click(10, 400);
    await dialog.waitFor({ state: "detached" });
  });

  it("reloads the page once when a lazily loaded screen fails to download", async () => {
    const page = await e2e.newPage();
    await signUpAndVerify(page, uniqueEmail("chunk"));
    // As after a deploy: the chunk cannot be fetched until the page has been reloaded.
    let hasReloaded = false;
    page.once("domcontentloaded", () => {
      hasReloaded = true;
    });
    await page.route(/\/assets\/profile-page-[^/]*\.js$/, (route) =>
      hasReloaded ? route.continue() : route.abort(),
    );
    const reloaded = page.waitForEvent("load");
    await openAccountSettings(page);
    await reloaded;
    await page.getByLabel("Display name").waitFor();
  });

  it("deletes the account after asking for the password; signing in again fails", async () => {
    const page = await e2e.newPage();
    const email = uniqueEmail("delete");
    await signUpAndVerify(page, email);
    await openAccountSettings(page);

    await page.getByRole("button", { name: "Delete account" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    await dialog.getByLabel("Password").fill("not my password");
    await dialog.getByRole("button", { name: "Delete account" }).click();
    await dialog.getByRole("alert").waitFor();

    await dialog.getByLabel("Password").fill(PASSWORD);
    await dialog.getByRole("button", { name: "Delete account" }).click();
    await page.waitForURL((url) => url.pathname === "/" && url.search === "");
    await page.getByText(MESSAGES.accountDeleted, { exact: true }).waitFor();

    await signIn(page, email, PASSWORD);
    await page.getByRole("alert").filter({ hasText: "Invalid credential" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
  });
});
