/**
 * The two products (SPEC §1, issue #15): the header's product switcher and the bug-tracking host. On one
 * host the switcher decides which product the tab shows; a host whose name starts with the bug-tracking
 * prefix shows bug tracking by itself, and the switcher leads back to the website-feedback host.
 */
import { PRODUCT_TEXTS } from "@redline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E } from "./harness.ts";
import { newProject, PASSWORD, shot, signedIn } from "./helpers.ts";

describe("products", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  const cardTitles = (page: import("playwright-core").Page) =>
    page.getByRole("list", { name: "Projects" }).getByRole("listitem").getByRole("heading").allInnerTexts();

  it("switches between website feedback and bug tracking in the header", async () => {
    const { page, api } = await signedIn(e2e, "switcher");
    await newProject(api, "Marketing site");
    await newProject(api, "Shop bugs", "browse");
    await page.reload();
    await expect.poll(() => cardTitles(page)).toEqual(["Marketing site"]);

    await page.getByRole("button", { name: "Product: Website feedback" }).click();
    const menu = page.getByRole("menu");
    expect(await menu.getByRole("menuitem", { name: /Video review/ }).getAttribute("aria-disabled")).toBe(
      "true",
    );
    const customerFeedback = menu.getByRole("menuitem", { name: /Customer feedback/ });
    expect(await customerFeedback.getAttribute("target")).toBe("_blank");
    await shot(page, "products-01-switcher");
    await menu.getByRole("menuitem", { name: "Bug tracking" }).click();

    await page.getByRole("button", { name: "Product: Bug tracking" }).waitFor();
    await page.getByRole("heading", { name: "Bug tracking projects" }).waitFor();
    await expect.poll(() => cardTitles(page)).toEqual(["Shop bugs"]);
    expect(await page.getByRole("link", { name: "Illustration" }).count()).toBe(0);
    // A new project here is a bug-tracking one unless chosen otherwise.
    await page.getByRole("button", { name: "New project" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New project" });
    await expect.poll(() => dialog.getByRole("radio", { name: /^Bug tracking\b/ }).isChecked()).toBe(true);
    await shot(page, "products-02-bug-tracking");
    await dialog.getByRole("button", { name: "Close" }).click();

    // The choice is kept for the next visit.
    await page.reload();
    await page.getByRole("button", { name: "Product: Bug tracking" }).waitFor();
    await page.getByRole("button", { name: "Product: Bug tracking" }).click();
    await page.getByRole("menuitem", { name: "Website feedback" }).click();
    await expect.poll(() => cardTitles(page)).toEqual(["Marketing site"]);
  });

  it("shows bug tracking on a host with the bug-tracking prefix, and leads back to the other host", async () => {
    const port = new URL(e2e.baseUrl).port;
    const bugsUrl = `http://bugs.localhost:${port}`;
    // The operator serves the bug-tracking product on a second host (BROWSE_URL): trusted like APP_URL.
    e2e.app.ctx.config.browse.url = bugsUrl;
    const { api, email } = await signedIn(e2e, "bugs-host");
    await newProject(api, "Marketing site");

    const page = await e2e.newPage();
    await page.goto(`${bugsUrl}/`);
    // The signed-out page speaks of the bug-tracking product, not website review.
    await page.getByText(PRODUCT_TEXTS.browse.headline).waitFor();
    expect(await page.getByText(PRODUCT_TEXTS.web.headline).count()).toBe(0);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/projects");
    await page.getByRole("button", { name: "Product: Bug tracking" }).waitFor();
    // No bug-tracking project yet: the empty list says so in the product's words.
    await page.getByText(PRODUCT_TEXTS.browse.noProjects).waitFor();
    expect(await page.getByText(PRODUCT_TEXTS.web.noProjects).count()).toBe(0);
    await newProject(api, "App bugs", "browse");
    await page.reload();
    await expect.poll(() => cardTitles(page)).toEqual(["App bugs"]);
    await shot(page, "products-03-bugs-host");

    await page.getByRole("button", { name: "Product: Bug tracking" }).click();
    await page.getByRole("menuitem", { name: "Website feedback" }).click();
    await page.waitForURL((url) => url.origin === e2e.baseUrl && url.pathname === "/projects");
    // Signed in there too (a one-time hand-off, not a second sign-in): the website projects show.
    await expect.poll(() => cardTitles(page)).toEqual(["Marketing site"]);
    expect(await page.getByRole("button", { name: "Sign in", exact: true }).count()).toBe(0);
  });
});
