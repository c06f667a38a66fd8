/**
 * A team's plan is its owner's (SPEC §4, §6), in a real browser with plans on: while the owner holds the
 * Team plan, a member of the team has "an enabled team" — no offer bar, no 'Get unlimited projects.
 * Upgrade now' — and sees the team's colours; the team page shows its branding and custom domain as on.
 * When the plan lapses, every one of its features ends together: the member's app is Redline's again
 * (and the upsells are back), the owner's team page says branding is not shown and the domain paused.
 */
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { teams, users } from "../apps/server/src/db/schema/index.ts";
import { type E2E, startE2E } from "./harness.ts";
import { shot, signedIn } from "./helpers.ts";

const UPSELL = "Get unlimited projects.";
const PRIMARY = "#2255aa";
const THEME = {
  primaryColor: PRIMARY,
  secondaryColor: "#e6edfa",
  textHighlightColor: "#ffffff",
  logoURL: null,
  iconURL: null,
};

const accent = (page: Page) =>
  page.evaluate(() => document.documentElement.style.getPropertyValue("--color-accent"));
const offerBar = (page: Page) => page.getByRole("region", { name: "Offer" });

describe("a team's plan", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ config: { plansEnabled: true } });
  });
  afterAll(() => e2e.close());

  it("gives its members an enabled team and its features while the owner's plan lasts, and ends them together", async () => {
    const { db } = e2e.app.ctx.database;
    const owner = await signedIn(e2e, "plan-owner", "Olive Owner");
    const ownerId = (await owner.api.get("/api/me")).body.data.uid as string;
    await db.update(users).set({ privilege: "team" }).where(eq(users.id, ownerId));
    const teamId = (await owner.api.post("/api/teams", { product: "web", name: "Paid Studio" })).body.data
      .id as string;
    expect(
      (await owner.api.patch(`/api/teams/${teamId}/branding`, { customBranding: true, ...pick(THEME) }))
        .status,
    ).toBe(200);
    await owner.api.put(`/api/teams/${teamId}/domain`, { domain: "review.paid-studio.test" });
    await db.update(teams).set({ domainStatus: "active" }).where(eq(teams.id, teamId));

    const member = await signedIn(e2e, "plan-member", "Mia Member");
    await owner.api.post(`/api/teams/${teamId}/members`, { email: member.email, access: "member" });

    // The member, on /projects: the team's colours, and nothing to upgrade to (SPEC §4).
    const { page } = member;
    await page.goto("/projects");
    await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
    await expect.poll(() => accent(page)).toBe(PRIMARY);
    expect(await page.getByText(UPSELL).count()).toBe(0);
    expect(await offerBar(page).count()).toBe(0);
    await shot(page, "team-plan-01-member-paid");

    // The owner's team page: branding shown, the domain active.
    await owner.page.goto(`/team/${teamId}`);
    const branding = owner.page.getByRole("region", { name: "Branding" });
    await branding.getByText("Shown to the team", { exact: true }).waitFor();
    const domain = owner.page.getByRole("region", { name: "Custom domain" });
    await domain.getByText("Status: Active", { exact: true }).waitFor();

    // The Team plan lapses: its features end together, for everyone.
    await db.update(users).set({ privilege: null }).where(eq(users.id, ownerId));
    await page.reload();
    await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
    await page.getByText(UPSELL).waitFor();
    await offerBar(page).waitFor();
    expect(await accent(page)).toBe("");
    await shot(page, "team-plan-02-member-lapsed");

    await owner.page.reload();
    await branding.getByText("Not shown", { exact: true }).waitFor();
    await branding.getByText(/^Not in the team owner's plan/).waitFor();
    await domain.getByText("Status: Paused", { exact: true }).waitFor();
    await domain.getByText(/no longer includes a custom domain/).waitFor();
    expect(await domain.getByText("Status: Active", { exact: true }).count()).toBe(0);
    await shot(owner.page, "team-plan-03-owner-lapsed");
  }, 120_000);
});

/** The theme's colours, as the branding route takes them. */
function pick(theme: typeof THEME) {
  const { primaryColor, secondaryColor, textHighlightColor } = theme;
  return { primaryColor, secondaryColor, textHighlightColor };
}
