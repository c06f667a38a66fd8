/**
 * Team branding in a real browser (SPEC §2 favicon and header logo, §3 theme, §4 when it applies, §9
 * hover 10% darker): the owner creates a team, adds an existing user as member, turns branding on, sets
 * the theme's colours and uploads a logo and an icon; the member signs in and sees the team's logo in
 * the header, its icon as the favicon, and primary buttons in the theme's colours.
 */
import { darken } from "@redline/shared";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpVerified } from "../apps/server/src/testing/http-client.ts";
import { type E2E, startE2E, uniqueEmail } from "./harness.ts";
import { PASSWORD, shot, signedIn, signInPage } from "./helpers.ts";

const PRIMARY = "#2255aa";
const SECONDARY = "#e6edfa";
const TEXT_HIGHLIGHT = "#fffbea";

/** `#rrggbb` as getComputedStyle reports it. */
const rgb = (hex: string) =>
  `rgb(${[1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)).join(", ")})`;

/** A wordmark logo and a square icon, drawn as SVG and uploaded as the PNG a designer would export. */
const logoPng = () =>
  sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="360" height="80">
      <rect x="4" y="12" width="56" height="56" rx="14" fill="${PRIMARY}"/>
      <circle cx="32" cy="40" r="14" fill="#ffffff"/>
      <text x="76" y="54" font-family="DejaVu Sans" font-weight="bold" font-size="36" fill="#1b2a44">Acme Brand</text>
    </svg>`),
  )
    .png()
    .toBuffer();
const iconPng = () =>
  sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128">
      <rect width="128" height="128" rx="28" fill="${PRIMARY}"/>
      <circle cx="64" cy="64" r="30" fill="#ffffff"/>
    </svg>`),
  )
    .png()
    .toBuffer();

const favicon = (page: Page) =>
  page.evaluate(() => document.head.querySelector('link[rel~="icon"]')?.getAttribute("href") ?? null);

describe("team branding", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e.close());

  it("an owner brands the team; its member sees the logo, the favicon and the theme's buttons", async () => {
    const owner = await signedIn(e2e, "brand-owner", "Olive Owner");
    const { page } = owner;
    await page.setViewportSize({ width: 1280, height: 1000 });

    // The team, and an existing user added as member.
    await page.getByRole("banner").getByRole("link", { name: "Team", exact: true }).click();
    await page.getByLabel("Team name").fill("Acme Brand");
    await page.getByRole("button", { name: "Create team" }).click();
    await page.waitForURL((url) => /^\/team\/[^/]+$/.test(url.pathname));
    const memberEmail = uniqueEmail("brand-member");
    await signUpVerified(e2e.baseUrl, e2e.app.inbox!, memberEmail, PASSWORD, "Mia Member");
    await page.getByRole("button", { name: "+ Add members" }).click();
    await page.getByLabel("Email address").fill(memberEmail);
    await page.getByRole("combobox", { name: "Access" }).selectOption("member");
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    await page.getByRole("list", { name: "Team members" }).getByText("Mia Member").waitFor();

    // The branding panel: on, three colours, a logo and an icon.
    const panel = page.getByRole("region", { name: "Branding" });
    await panel.getByRole("switch", { name: "Custom branding" }).click();
    await expect
      .poll(() => panel.getByRole("switch", { name: "Custom branding" }).getAttribute("aria-checked"))
      .toBe("true");
    await panel.getByLabel("Primary colour").fill(PRIMARY);
    await panel.getByLabel("Secondary colour").fill(SECONDARY);
    await panel.getByLabel("Text highlight colour").fill(TEXT_HIGHLIGHT);
    await panel.getByRole("button", { name: "Save colours" }).click();
    // Saved: the form shows the team's colours again, with nothing left to save.
    await expect.poll(() => panel.getByRole("button", { name: "Save colours" }).isDisabled()).toBe(true);
    expect(await panel.getByLabel("Primary colour").inputValue()).toBe(PRIMARY);
    await panel
      .getByLabel("Upload logo")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: await logoPng() });
    await panel.getByRole("img", { name: "Team logo" }).waitFor();
    await panel
      .getByLabel("Upload icon")
      .setInputFiles({ name: "icon.png", mimeType: "image/png", buffer: await iconPng() });
    await panel.getByRole("img", { name: "Team icon" }).waitFor();
    // Not an image, whatever it is called: refused with a clear message, the icon kept.
    await panel
      .getByLabel("Replace icon")
      .setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not an image") });
    expect(await panel.getByRole("alert").textContent()).toBe("Upload a PNG, JPEG, WebP or GIF image.");
    await panel.getByRole("img", { name: "Team icon" }).waitFor();

    const team = (await owner.api.get("/api/teams?product=web")).body.data[0];
    expect(team).toMatchObject({
      name: "Acme Brand",
      customBranding: true,
      theme: { primaryColor: PRIMARY, secondaryColor: SECONDARY, textHighlightColor: TEXT_HIGHLIGHT },
    });
    const { logoURL, iconURL } = team.theme as { logoURL: string; iconURL: string };
    expect(logoURL).toMatch(/^\/files\/branding\//);
    expect(iconURL).toMatch(/^\/files\/branding\//);
    // The owner's own app follows at once: their active team is this one.
    await expect.poll(() => favicon(page)).toBe(iconURL);
    await page.getByRole("banner").getByRole("img", { name: "Acme Brand" }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll(".branding img").length === 2);
    await panel.scrollIntoViewIfNeeded();
    await shot(page, "branding-01-team-page");
    // The panel alone (the page's snackbars stack over its lower half for a few seconds).
    if (process.env.E2E_SCREENSHOTS)
      await panel.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/branding-01-panel.png` });

    // The member: the team's logo in the header, its icon as favicon, buttons in the theme's colours.
    const member = await signInPage(e2e, memberEmail);
    const header = member.getByRole("banner");
    const logo = header.getByRole("img", { name: "Acme Brand" });
    await logo.waitFor();
    expect(await logo.getAttribute("src")).toBe(logoURL);
    expect(await header.getByText("Redline", { exact: true }).count()).toBe(0);
    await expect.poll(() => favicon(member)).toBe(iconURL);
    const favicons = await member.evaluate(
      async (href) => (await fetch(href)).headers.get("content-type"),
      iconURL,
    );
    expect(favicons).toBe("image/png");

    const newProject = member.getByRole("button", { name: "New project" }).first();
    const style = () =>
      newProject.evaluate((button) => {
        const computed = getComputedStyle(button);
        return { background: computed.backgroundColor, color: computed.color };
      });
    // Buttons ease between colours (a 120 ms transition) once the theme arrives.
    await expect.poll(style).toEqual({ background: rgb(PRIMARY), color: rgb(TEXT_HIGHLIGHT) });
    // SPEC §9: hovered, 10% darker.
    await newProject.hover();
    await expect.poll(async () => (await style()).background).toBe(rgb(darken(PRIMARY, 0.1)));
    await member.mouse.move(0, 400);
    await shot(member, "branding-02-member-header");

    // Branding off: the member's app goes back to Redline's logo, favicon and red (live, through teams.changed).
    await panel.getByRole("switch", { name: "Custom branding" }).click();
    await header.getByText("Redline", { exact: true }).waitFor();
    await expect.poll(() => favicon(member)).toBe("/favicon.svg");
    await expect.poll(async () => (await style()).background).toBe(rgb("#e5383b"));
  });
});
