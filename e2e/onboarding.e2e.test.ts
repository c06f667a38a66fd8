/**
 * The first minutes (SPEC §1, §2, §9; issue #34 item 2) and the header (item 3) in a real browser: a new
 * user gets the full-screen profile setup, the seven-slide tour, the product-splitting intro and the demo
 * invitation, each once; the header turns transparent with a white logo at 100 px on /projects.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOUR_SLIDES } from "../apps/web/src/features/onboarding/tour-slides.ts";
import { type E2E, startE2E } from "./harness.ts";
import { newProject, shot, signedIn } from "./helpers.ts";

describe("onboarding", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it("shows a new user the profile setup, the tour, the intro and the demo, each once", async () => {
    const { page, api } = await signedIn(e2e, "newcomer", "Ada Lovelace", { onboarded: false });

    const setup = page.getByRole("dialog", { name: "Set up your profile" });
    await setup.waitFor();
    // Full-screen (SPEC §2: the modal's variant for user setup).
    const box = await setup.boundingBox();
    expect(box?.width).toBe(1280);
    expect(box?.height).toBe(800);
    await expect.poll(() => setup.getByLabel("Display name").inputValue()).toBe("Ada Lovelace");
    await setup.getByRole("radio", { name: "Avatar 3" }).check();
    await setup.getByLabel("How did you hear about us?").selectOption("A friend or colleague");
    await shot(page, "onboarding-01-profile-setup");
    await setup.getByRole("button", { name: "Continue" }).click();
    await setup.waitFor({ state: "detached" });

    const tour = page.getByRole("dialog", { name: "Welcome to Redline" });
    await tour.getByText(TOUR_SLIDES[0]!).waitFor();
    await shot(page, "onboarding-02-tour");
    await tour.getByRole("button", { name: "Next slide" }).click();
    await tour.getByText(TOUR_SLIDES[1]!).waitFor();
    await page.keyboard.press("ArrowRight");
    await tour.getByText(TOUR_SLIDES[2]!).waitFor();
    await page.keyboard.press("ArrowLeft");
    await tour.getByText(TOUR_SLIDES[1]!).waitFor();
    // Seven named dots; the current one says so.
    const dots = tour.getByRole("group", { name: "Slides" }).getByRole("button");
    expect(await dots.count()).toBe(7);
    await tour.getByRole("button", { name: /^Slide 7 of 7/ }).click();
    await tour.getByText(TOUR_SLIDES[6]!).waitFor();
    expect(await tour.getByRole("button", { name: /^Slide 7 of 7/ }).getAttribute("aria-current")).toBe(
      "step",
    );
    await tour.getByRole("button", { name: "Get started" }).click();
    await tour.waitFor({ state: "detached" });

    // The product-splitting intro, a second after /projects loads (SPEC §9).
    const intro = page.getByRole("dialog", { name: "Two products, one account" });
    await intro.waitFor();
    await shot(page, "onboarding-03-intro");
    await page.keyboard.press("Escape");
    await intro.waitFor({ state: "detached" });

    const demo = page.getByRole("dialog", { name: "See a review in progress" });
    await demo.waitFor();
    expect(await demo.getByRole("link", { name: "Open the demo project" }).getAttribute("href")).toBe(
      "/share/demo",
    );
    await shot(page, "onboarding-04-demo");
    await demo.getByRole("button", { name: "Not now" }).click();
    await demo.waitFor({ state: "detached" });

    const me = (await api.get("/api/me")).body.data;
    expect(me.photoURL).toBe("avatar-3");
    expect(me.signupSource).toBe("A friend or colleague");
    // The last flag is saved as the demo closes: its request may still be on its way.
    await expect
      .poll(async () => (await api.get("/api/me")).body.data.onboarding, { timeout: 10_000 })
      .toMatchObject({
        profileSetup: true,
        featureTour: true,
        introduceProductSplitting: true,
        demoModal: true,
      });

    // Once: never again, on any of the routes.
    for (const path of ["/projects", "/team", "/profile"]) {
      await page.goto(path);
      await page.getByRole("banner").getByRole("link", { name: "Projects", exact: true }).waitFor();
      await page.waitForTimeout(1_500);
      expect(await page.getByRole("dialog").count(), path).toBe(0);
    }
  });

  it("turns the header transparent with a white logo from 100 px of scrolling on /projects", async () => {
    const { page, api } = await signedIn(e2e, "scroller");
    await newProject(api, "Tall list");
    await page.setViewportSize({ width: 1280, height: 320 });
    await page.goto("/projects");
    const header = page.getByRole("banner");
    await page.getByText("Tall list").first().waitFor();
    const logoColour = () =>
      header
        .getByRole("link", { name: "Redline, go to projects" })
        .evaluate((e) => getComputedStyle(e).color);
    const scrollTo = async (y: number) => {
      await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(y);
    };
    expect(
      await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight),
    ).toBeGreaterThan(120);

    await scrollTo(99);
    await page.waitForTimeout(100);
    expect(await header.getAttribute("data-transparent")).toBeNull();
    expect(await logoColour()).not.toBe("rgb(255, 255, 255)");

    await scrollTo(100);
    await expect.poll(() => header.getAttribute("data-transparent")).toBe("true");
    await expect.poll(logoColour).toBe("rgb(255, 255, 255)");
    await shot(page, "onboarding-05-transparent-header");

    await scrollTo(0);
    await expect.poll(() => header.getAttribute("data-transparent")).toBeNull();
    // Elsewhere it stays as it is, and its back button leads to the project list.
    await page.goto("/team");
    await page.evaluate(() => window.scrollTo({ top: 400, behavior: "instant" }));
    await page.waitForTimeout(100);
    expect(await header.getAttribute("data-transparent")).toBeNull();
    await header.getByRole("link", { name: "Back to projects" }).click();
    await page.waitForURL((url) => url.pathname === "/projects");
  });
});
