/**
 * The other ways to hold a plan, and what a free plan's expiry leaves, in a real browser with plans on:
 * a privilege link signs a visitor up on the Team plan (once: the next visitor stays on Free); a
 * lifetime-deal code on /offers lifts a free user at the project limit to Lifetime tier 2 (a made-up
 * code and a used one are explained under the field); an expired web app project (of a Standard
 * privilege, which includes web apps but not unlimited projects) is read-only, says so, and can still be
 * deleted by its owner; a free user's expired bug-tracking project is read-only with the way to upgrade.
 */
import { GRANT_MESSAGES, PROJECT_MESSAGES } from "@redline/shared";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projects, users } from "../apps/server/src/db/schema/index.ts";
import { mintLifetimeCode, mintPrivilegeToken } from "../apps/server/src/modules/plans/grants.ts";
import type { ApiClient } from "../apps/server/src/testing/http-client.ts";
import { type E2E, startE2E, uniqueEmail } from "./harness.ts";
import { newProject, PASSWORD, shot, signedIn, skipOnboarding } from "./helpers.ts";

const UPSELL = "Get unlimited projects.";
const ALREADY_USED = "This has already been used.";
const VERIFY_TO_ACTIVATE = "Verify your email to activate your Team plan.";
/** /offers for a holder: nothing to sell. */
/** Tier 2 is told what tier 3 adds (SPEC §9: custom branding), not that there is nothing to upgrade. */
const TIER_2_INCLUDED =
  /Lifetime tier 3 adds unlimited collaborators and custom branding: redeem its code below\./;
const EXPIRED_TEXT = "This project has expired and is read-only.";

/** Goes to /projects through the header's link (no reload), the way a user would. */
async function toProjects(page: Page): Promise<void> {
  await page.getByRole("banner").getByRole("link", { name: "Projects", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/projects");
  await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
}

/** Creates a project of the given type through the 'New project' modal of /projects; it opens. */
async function createInUi(page: Page, title: string, type = "Website"): Promise<void> {
  await toProjects(page);
  await page.getByRole("button", { name: "New project" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New project" });
  await dialog.getByLabel("Project title").fill(title);
  await dialog.getByRole("radio", { name: new RegExp(`^${type}\\b`) }).check();
  await dialog.getByRole("button", { name: "Create project" }).click();
  await page.waitForURL((url) => url.pathname.startsWith("/project/"));
  await page.getByRole("heading", { name: title }).first().waitFor();
}

/** Opens 'My Plan' from the profile menu: /billing. */
async function toMyPlan(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Profile menu" }).click();
  await page.getByRole("menuitem", { name: "My Plan" }).click();
  await page.waitForURL((url) => url.pathname === "/billing");
  await page.getByRole("heading", { name: "Your plan" }).waitFor();
}

const projectCount = async (api: ApiClient) =>
  ((await api.get("/api/projects?list=all")).body.data as unknown[]).length;

describe("plans granted by link or code, and expired projects", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ config: { plansEnabled: true } });
  });
  afterAll(() => e2e.close());

  /** Signs up through the form on the current page and follows the mail's link; lands on /projects. */
  async function signUpAndVerify(page: Page, email: string, waiting: string): Promise<void> {
    await page.getByLabel("Full name").fill("Grace Hopper");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText(`We sent a verification link to ${email}`).waitFor();
    await page.getByText(waiting, { exact: true }).waitFor();
    const mail = await e2e.app.inbox!.waitFor(
      (message) => message.to.includes(email) && Boolean(message.link?.includes("verifyEmail")),
    );
    await page.goto(mail.link!);
    await page.waitForURL((url) => url.pathname === "/projects");
  }

  it("signs a visitor up on the Team plan through a privilege link, which works only once", async () => {
    const token = mintPrivilegeToken(e2e.app.ctx.config.authSecret, "team");
    const link = `/signup/start-privilege/team?token=${encodeURIComponent(token)}`;

    const page = await e2e.newPage();
    await page.goto(link);
    await page.getByRole("heading", { name: "Create your account" }).waitFor();
    await page.getByText("Sign up to activate your Team plan.", { exact: true }).waitFor();
    await shot(page, "grants-01-privilege-signup");
    await signUpAndVerify(page, uniqueEmail("privileged"), VERIFY_TO_ACTIVATE);

    // Signed in, the stored link is taken: the plan is activated, and /projects sells nothing.
    // Told at once (behind the new account's first screen, the profile setup).
    await expect.poll(() => page.getByText(GRANT_MESSAGES.privilegeGranted).count()).toBeGreaterThan(0);
    // A new account's first screens (profile setup, tour) are seen (onboarding.e2e.test.ts walks them).
    await skipOnboarding(page);
    await page.getByRole("button", { name: "New project" }).first().waitFor();
    expect(await page.getByText(UPSELL).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Upgrade now" }).count()).toBe(0);
    await toMyPlan(page);
    await page.getByText("Your current plan is Team", { exact: true }).waitFor();
    expect(await page.getByText("You are on the Free plan").count()).toBe(0);
    await shot(page, "grants-02-privilege-team-plan");

    // Team has no project limit: two website projects.
    await createInUi(page, "Team site one");
    await createInUi(page, "Team site two");
    await toProjects(page);
    await expect
      .poll(() => page.getByRole("list", { name: "Projects" }).getByRole("listitem").count())
      .toBe(2);
    expect(await page.getByText(UPSELL).count()).toBe(0);
    await shot(page, "grants-03-privilege-two-projects");

    // The same link again, for another new visitor: told before signing up that it was used (no plan is
    // promised), signed up on the Free plan.
    const other = await e2e.newPage();
    await other.goto(link);
    await other.getByRole("heading", { name: "Create your account" }).waitFor();
    await other.getByText(/This has already been used\. You can still sign up/).waitFor();
    expect(await other.getByText("Sign up to activate your Team plan.").count()).toBe(0);
    await signUpAndVerify(other, uniqueEmail("second-visitor"), ALREADY_USED);
    await skipOnboarding(other);
    expect(await other.getByText(GRANT_MESSAGES.privilegeGranted).count()).toBe(0);
    await other.getByText(UPSELL).waitFor();
    expect(await other.getByRole("link", { name: "Upgrade now" }).getAttribute("href")).toBe("/upgrade");
    await shot(other, "grants-04-privilege-used");
    await toMyPlan(other);
    await other.getByText("You are on the Free plan", { exact: true }).waitFor();
    expect(await other.getByText("Your current plan is Team").count()).toBe(0);
  });

  it("redeems a lifetime-deal code for tier 2 on /offers, lifting the project limit, once", async () => {
    const { page, api } = await signedIn(e2e, "lifetime");
    await newProject(api, "First site");
    // At the free plan's one website project: the upsell shows and the server refuses another.
    await page.reload();
    await page.getByText(UPSELL).waitFor();
    expect((await api.post("/api/projects", { title: "Too many", type: "web" })).status).toBe(402);

    await page.getByRole("button", { name: "Profile menu" }).click();
    await page.getByRole("menuitem", { name: "Offers" }).click();
    await page.waitForURL((url) => url.pathname === "/offers");
    await page.getByRole("heading", { name: "Have a lifetime deal code?" }).waitFor();
    const field = page.getByRole("textbox", { name: "Lifetime deal code" });
    const deal = page.getByRole("region", { name: "Have a lifetime deal code?" });
    const redeem = deal.getByRole("button", { name: "Redeem" });

    // A made-up code, shaped like a real one: explained under the field.
    await field.fill("RL2-madeupcode12-abcdefghijklmnopqrstuv");
    await redeem.click();
    await deal.getByRole("alert").getByText("This code is not valid.", { exact: true }).waitFor();
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    await shot(page, "grants-05-lifetime-invalid");

    // A minted tier-2 code: the deal is active and the plan is Lifetime tier 2.
    const code = mintLifetimeCode(e2e.app.ctx.config.authSecret, 2);
    await field.fill(code);
    // Typing clears the previous error.
    await expect.poll(() => deal.getByRole("alert").count()).toBe(0);
    expect(await field.getAttribute("aria-invalid")).toBeNull();
    await redeem.click();
    await page.getByRole("status").filter({ hasText: GRANT_MESSAGES.lifetimeRedeemed }).waitFor();
    await page.getByText(TIER_2_INCLUDED).waitFor();
    expect(await field.inputValue()).toBe("");
    expect(await deal.getByRole("alert").count()).toBe(0);
    await shot(page, "grants-06-lifetime-active");
    await toMyPlan(page);
    await page.getByText("Your current plan is Lifetime tier 2", { exact: true }).waitFor();

    // No project limit any more: a second and a third website project.
    await createInUi(page, "Second site");
    await createInUi(page, "Third site");
    await toProjects(page);
    await expect
      .poll(() => page.getByRole("list", { name: "Projects" }).getByRole("listitem").count())
      .toBe(3);
    expect(await page.getByText(UPSELL).count()).toBe(0);
    expect(await projectCount(api)).toBe(3);

    // The same code again: already used.
    await page.goto("/offers");
    await field.fill(code);
    await redeem.click();
    await deal.getByRole("alert").getByText(ALREADY_USED, { exact: true }).waitFor();
    expect(await page.getByRole("status").filter({ hasText: GRANT_MESSAGES.lifetimeRedeemed }).count()).toBe(
      0,
    );
    await page.getByText(TIER_2_INCLUDED).waitFor();
    await shot(page, "grants-07-lifetime-used");
  });

  /** Marks the project as past its expiry, as two days would. */
  const expire = (projectId: string) =>
    e2e.app.ctx.database.db
      .update(projects)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(projects.id, projectId));

  it("shows an expired web app project read-only and lets its owner delete it", async () => {
    const { page, api } = await signedIn(e2e, "expiring");
    // Web apps come with paid plans; Standard's projects are limited, so its web app projects expire.
    const uid = (await api.get("/api/me")).body.data.uid as string;
    await e2e.app.ctx.database.db.update(users).set({ privilege: "standard" }).where(eq(users.id, uid));
    await page.reload();
    await createInUi(page, "Checkout flow", "Web app");
    const projectId = new URL(page.url()).pathname.split("/")[2]!;

    // While it lasts: an image is uploaded, the title can be renamed, and it counts down.
    const image = await sharp({ create: { width: 640, height: 400, channels: 3, background: "#2f5fb3" } })
      .png()
      .toBuffer();
    await page
      .getByLabel("Upload image or PDF")
      .setInputFiles({ name: "basket.png", mimeType: "image/png", buffer: image });
    await page.waitForURL((url) => url.pathname.endsWith("/comment"));
    await page.goto(`/project/${projectId}`);
    const pages = page.getByRole("list", { name: "Pages of this project" });
    await pages.getByText("basket").first().waitFor();
    await page.getByRole("button", { name: "Rename project: Checkout flow" }).waitFor();
    await page.getByRole("region", { name: "Add pages" }).waitFor();
    await page.getByRole("button", { name: "Add page", exact: true }).waitFor();
    await page.getByText(/^Expires in \d+h$/).waitFor();
    expect(await page.getByText(EXPIRED_TEXT).count()).toBe(0);

    await expire(projectId);

    // The card says 'Expired' and its title is no longer a rename button.
    await toProjects(page);
    await page.reload();
    const card = page.getByRole("list", { name: "Projects" }).getByRole("listitem").filter({
      hasText: "Checkout flow",
    });
    await card.getByText("Expired", { exact: true }).waitFor();
    expect(await card.getByRole("button", { name: /^Rename project/ }).count()).toBe(0);
    await shot(page, "grants-08-expired-card");

    // The project: the notice (no upsell: a privilege hides them, SPEC §6); the page is still there,
    // nothing can be added or renamed.
    await card.getByRole("link", { name: "Open Checkout flow" }).click();
    await page.waitForURL((url) => url.pathname.startsWith(`/project/${projectId}`));
    await page.getByText(EXPIRED_TEXT, { exact: true }).waitFor();
    expect(await page.getByRole("link", { name: "Upgrade to keep working on it" }).count()).toBe(0);
    await pages.getByText("basket").first().waitFor();
    await page.getByRole("heading", { name: "Checkout flow", level: 1 }).waitFor();
    expect(await page.getByRole("button", { name: "Add page", exact: true }).count()).toBe(0);
    expect(await page.getByLabel("Upload image or PDF").count()).toBe(0);
    expect(await page.getByText("Upload image or PDF").count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Rename project/ }).count()).toBe(0);
    expect(await page.getByRole("region", { name: "Add pages" }).count()).toBe(0);
    await shot(page, "grants-09-expired-project");

    // Its owner may still delete it from the card's menu (but not set a thumbnail).
    await toProjects(page);
    await card.getByRole("button", { name: "Project actions for Checkout flow" }).click();
    await page.getByRole("menuitem", { name: "Open" }).waitFor();
    expect(await page.getByRole("menuitem", { name: "Set thumbnail" }).count()).toBe(0);
    await page.getByRole("menuitem", { name: "Delete" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete this project?" });
    await confirm.getByRole("button", { name: "Delete project" }).click();
    await page.getByText(PROJECT_MESSAGES.deleted, { exact: true }).waitFor();
    await card.waitFor({ state: "detached" });
    expect((await api.get(`/api/projects/${projectId}`)).status).toBe(404);
    await shot(page, "grants-10-expired-deleted");
  });

  it("shows a free user's expired bug-tracking project read-only, with the way to upgrade", async () => {
    const { page, api } = await signedIn(e2e, "tracker");
    await createInUi(page, "Shop bugs", "Bug tracking");
    const projectId = new URL(page.url()).pathname.split("/")[2]!;
    await toProjects(page);
    const card = page.getByRole("list", { name: "Projects" }).getByRole("listitem").filter({
      hasText: "Shop bugs",
    });
    await card.getByText(/^Expires in \d+h$/).waitFor();
    await card.getByRole("button", { name: "Rename project: Shop bugs" }).waitFor();

    await expire(projectId);
    await page.reload();
    await card.getByText("Expired", { exact: true }).waitFor();
    expect(await card.getByRole("button", { name: /^Rename project/ }).count()).toBe(0);
    await card.getByRole("link", { name: "Open Shop bugs" }).click();
    await page.waitForURL((url) => url.pathname.startsWith(`/project/${projectId}`));
    await page.getByText(EXPIRED_TEXT, { exact: true }).waitFor();
    expect(await page.getByRole("link", { name: "Upgrade to keep working on it" }).getAttribute("href")).toBe(
      "/upgrade",
    );
    await shot(page, "grants-11-expired-tracker");
    // A client that skips the UI cannot change it either.
    const renamed = await api.patch(`/api/projects/${projectId}`, { title: "Still mine" });
    expect(renamed.status).toBe(403);
    expect((await api.get(`/api/projects/${projectId}`)).body.data.title).toBe("Shop bugs");
  });
});
