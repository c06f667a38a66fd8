/**
 * A team's custom domain in a real browser (issue #14): the owner adds a domain on /team/{id}, sees the
 * CNAME and TXT records to create, the records go into the embedded DNS server (its /dev/dns API, as a
 * developer's DNS provider would), "Check again" turns the status Verified, then Active. A browser that
 * resolves the domain to this server then opens the app there, titled after the team and in its branding
 * (SPEC §2, §4), and someone signs in there.
 */
import { chromium, type Locator, type Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../apps/server/src/testing/http-client.ts";
import { type E2E, startE2E } from "./harness.ts";
import { PASSWORD, shot, signedIn } from "./helpers.ts";

const DOMAIN = "review.acme-studio.test";
const PRIMARY = "#2255aa";

/** `#rrggbb` as getComputedStyle reports it. */
const rgb = (hex: string) =>
  `rgb(${[1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)).join(", ")})`;
const square = (fill: string) =>
  sharp({ create: { width: 96, height: 96, channels: 4, background: fill } })
    .png()
    .toBuffer();
const favicon = (page: Page) =>
  page.evaluate(() => document.head.querySelector('link[rel~="icon"]')?.getAttribute("href") ?? null);
const background = (button: Locator) =>
  button.evaluate((element) => getComputedStyle(element).backgroundColor);

describe("team custom domain", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e.close());

  it("adds a domain, shows its records, checks it to Active, and titles the app after the team on that host", async () => {
    const owner = await signedIn(e2e, "domain-owner", "Olive Owner");
    const { page } = owner;
    const created = await owner.api.post("/api/teams", { product: "web", name: "Acme Studio" });
    expect(created.status).toBe(201);
    const teamId = created.body.data.id as string;

    // The panel's last row (Check again, Remove) in view for the screenshots.
    const toBottom = () => page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.goto(`/team/${teamId}`);
    const panel = page.getByRole("region", { name: "Custom domain" });
    await panel.getByText("No custom domain yet.").waitFor();
    await panel.scrollIntoViewIfNeeded();
    await shot(page, "domain-01-empty");

    await panel.getByLabel("Domain").fill(DOMAIN);
    await panel.getByRole("button", { name: "Save" }).click();
    const records = panel.getByRole("table", { name: "DNS records" });
    await records.waitFor();
    await panel.getByText("Status: Pending").waitFor();
    const rows = records.locator("tbody tr");
    expect(await rows.count()).toBe(2);
    const record = async (index: number) => {
      const cells = rows.nth(index).locator("code");
      const text = async (cell: ReturnType<Page["locator"]>) => ((await cell.textContent()) ?? "").trim();
      return {
        type: await text(rows.nth(index).locator("td").first()),
        name: await text(cells.nth(0)),
        value: await text(cells.nth(1)),
      };
    };
    const cname = await record(0);
    const txt = await record(1);
    expect(cname).toMatchObject({ type: "CNAME", name: DOMAIN });
    expect(txt).toMatchObject({ type: "TXT", name: `_redline-challenge.${DOMAIN}` });
    expect(txt.value).toMatch(/^redline-verification=[0-9a-f]{32}$/);
    for (const name of ["Copy CNAME name", "Copy CNAME value", "Copy TXT name", "Copy TXT value"])
      await panel.getByRole("button", { name }).waitFor();
    await toBottom();
    await shot(page, "domain-02-pending");

    // The records, created at "the DNS provider": the embedded DNS server the app asks.
    const zone = new ApiClient(e2e.baseUrl);
    const add = async (entry: { type: string; name: string; value: string }) =>
      expect((await zone.post("/dev/dns/records", entry)).status).toBe(201);

    await add(txt);
    await panel.getByRole("button", { name: "Check again" }).click();
    await panel.getByText("Status: Verified").waitFor();
    await panel.getByText(/Point its CNAME at/).waitFor();
    await toBottom();
    await shot(page, "domain-03-verified");

    await add(cname);
    await panel.getByRole("button", { name: "Check again" }).click();
    await panel.getByText("Status: Active").waitFor();
    await panel.getByText(`Live: ${DOMAIN} opens Redline under this team's name.`).waitFor();
    await toBottom();
    await shot(page, "domain-04-active");
    expect((await fetch(`${e2e.baseUrl}/api/domains/ask?domain=${DOMAIN}`)).status).toBe(200);

    // A browser whose DNS sends the domain to this server: the app there is the team's.
    // The team's branding, set by its owner, is what the domain shows.
    expect(
      (
        await owner.api.patch(`/api/teams/${teamId}/branding`, {
          customBranding: true,
          primaryColor: PRIMARY,
        })
      ).status,
    ).toBe(200);
    const logoURL = (
      await owner.api.upload(`/api/teams/${teamId}/branding/logo`, {
        name: "logo.png",
        type: "image/png",
        bytes: await square("#1b2a44"),
      })
    ).body.data.theme.logoURL as string;
    const iconURL = (
      await owner.api.upload(`/api/teams/${teamId}/branding/icon`, {
        name: "icon.png",
        type: "image/png",
        bytes: await square(PRIMARY),
      })
    ).body.data.theme.iconURL as string;
    const guest = await signedIn(e2e, "domain-guest", "Gus Guest");

    const port = new URL(e2e.baseUrl).port;
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", `--host-resolver-rules=MAP ${DOMAIN} 127.0.0.1`],
    });
    try {
      const visitor = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      await visitor.goto(`http://${DOMAIN}:${port}/`);
      await expect.poll(() => visitor.title(), { timeout: 10_000 }).toBe("Acme Studio");
      // The team's branding applies on its host from the first page, signed in or not.
      await expect.poll(() => favicon(visitor)).toBe(iconURL);
      const signIn = visitor.getByRole("button", { name: "Sign in", exact: true });
      await expect.poll(() => background(signIn)).toBe(rgb(PRIMARY));
      await shot(visitor, "domain-05-custom-host");
      await visitor.goto(`http://${DOMAIN}:${port}/signup`);
      await visitor.getByRole("heading").first().waitFor();
      await expect.poll(() => visitor.title()).toBe("Acme Studio");

      // Someone outside the team signs in on the team's host: the team's logo, colours and title there.
      await visitor.goto(`http://${DOMAIN}:${port}/`);
      await visitor.getByLabel("Email", { exact: true }).fill(guest.email);
      await visitor.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await signIn.click();
      await visitor.waitForURL((url) => url.pathname === "/projects");
      const logo = visitor.getByRole("banner").getByRole("img", { name: "Acme Studio" });
      await logo.waitFor();
      expect(await logo.getAttribute("src")).toBe(logoURL);
      await expect
        .poll(() => background(visitor.getByRole("button", { name: "New project" }).first()))
        .toBe(rgb(PRIMARY));
      expect(await visitor.title()).toBe("Acme Studio");
      await shot(visitor, "domain-06-custom-host-signed-in");
    } finally {
      await browser.close();
    }

    // The embedded DNS server's page lists the team's domain and the records the test created.
    await page.goto("/dev/dns");
    await page.getByRole("heading", { name: "DNS records" }).waitFor();
    await page
      .getByRole("region", { name: "Teams' custom domains" })
      .getByText(`${DOMAIN} — Acme Studio`)
      .waitFor();
    await page.getByRole("region", { name: "Records" }).getByText(txt.value).waitFor();
    await shot(page, "domain-07-dev-dns");
  });
});
