/**
 * The instance admin in a real browser (issue #34 item 6): an operator named in ADMIN_EMAILS disables a
 * team at /admin and its owner sees the disabled-team notice on /team (SPEC §2, §4: the notice is the
 * owner's); the events of the journey show in the usage chart, and the action in the audit. Anyone else
 * meets a 404 at /admin.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpVerified } from "../apps/server/src/testing/http-client.ts";
import { type E2E, startE2E } from "./harness.ts";
import { PASSWORD, shot, signedIn, signInPage } from "./helpers.ts";

const OPERATOR = "e2e-operator@example.com";

describe("the instance admin", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ config: { adminEmails: [OPERATOR] } });
  });
  afterAll(() => e2e.close());

  it("disables a team, whose owner then sees the disabled-team notice; the journey's events are in the usage chart", async () => {
    const owner = await signedIn(e2e, "admin-owner", "Olive Owner");
    const member = await signedIn(e2e, "admin-member", "Mia Member");
    const teamId = (await owner.api.post("/api/teams", { product: "web", name: "Night Shift" })).body.data
      .id as string;
    expect(
      (await owner.api.post(`/api/teams/${teamId}/members`, { email: member.email, access: "member" }))
        .status,
    ).toBe(201);

    // The journey's events: the owner starts an upgrade (the browser reports it, SPEC §7).
    const recorded = await owner.page.evaluate(async () => {
      const response = await fetch("/api/analytics/events", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ event: "UpgradeInitiated", properties: { plan: "team" } }),
      });
      return response.status;
    });
    expect(recorded).toBe(204);

    // Not an operator: no menu offers /admin, and it does not exist for them.
    await member.page.getByRole("button", { name: "Profile menu" }).click();
    await member.page.getByRole("menuitem", { name: "Account Settings" }).waitFor();
    expect(await member.page.getByRole("menuitem", { name: "Instance admin" }).count()).toBe(0);
    await member.page.keyboard.press("Escape");
    await member.page.goto("/admin");
    await member.page.getByText("404").first().waitFor();
    expect(await member.page.getByRole("tab", { name: "Teams" }).count()).toBe(0);

    // (A retry of this test finds the operator's account made by the first try.)
    await signUpVerified(e2e.baseUrl, e2e.app.inbox!, OPERATOR, PASSWORD, "Otto Operator").catch((error) => {
      if (!String(error).includes("USER_ALREADY_EXISTS")) throw error;
    });
    const admin = await signInPage(e2e, OPERATOR);
    await admin.getByRole("button", { name: "Profile menu" }).click();
    await admin.getByRole("menuitem", { name: "Instance admin" }).click();
    await admin.waitForURL((url) => url.pathname === "/admin");
    await admin.getByRole("tab", { name: "Teams" }).click();
    // Acting on the search's own answer, not on the unfiltered list shown while the search waits.
    const searched = admin.waitForResponse((response) => response.url().includes("/api/admin/teams?q=night"));
    await admin.getByRole("searchbox", { name: "Search teams by name or owner" }).fill("night");
    await searched;
    const row = admin.getByRole("row", { name: /Night Shift/ });
    await row.waitFor();
    expect(await row.textContent()).toContain(owner.email);
    await admin.getByRole("button", { name: "Disable team Night Shift" }).click();
    await admin.getByRole("button", { name: "Enable team Night Shift" }).waitFor();
    await expect.poll(() => row.getByText("Disabled").count()).toBe(1);
    await shot(admin, "admin-01-team-disabled");

    // The owner's team page says so (SPEC §4: disabled, named, their own, under /team).
    await owner.page.goto("/team");
    const notice = owner.page.getByRole("status").filter({ hasText: "This team is disabled." });
    await notice.waitFor();
    expect(await owner.page.getByRole("button", { name: "+ Add members" }).count()).toBe(0);
    await shot(owner.page, "admin-02-owner-notice");

    // The usage chart has the journey's events; the audit has the action.
    await admin.getByRole("tab", { name: "Usage" }).click();
    const totals = admin.getByRole("list", { name: "Totals" });
    await expect.poll(async () => totals.textContent()).toContain("Upgrades started: 1");
    await admin.getByRole("img", { name: /Events per day/ }).waitFor();
    await shot(admin, "admin-03-usage");
    await admin.getByRole("tab", { name: "Audit" }).click();
    const entry = admin.getByRole("row", { name: /Disabled team/ });
    await entry.waitFor();
    expect(await entry.textContent()).toContain("Night Shift");
    expect(await entry.textContent()).toContain(OPERATOR);

    // Enabled again: the notice goes.
    await admin.getByRole("tab", { name: "Teams" }).click();
    await admin.getByRole("searchbox", { name: "Search teams by name or owner" }).fill("night");
    await admin.getByRole("button", { name: "Enable team Night Shift" }).click();
    await admin.getByRole("button", { name: "Disable team Night Shift" }).waitFor();
    await owner.page.reload();
    await owner.page.getByRole("heading", { name: "Members" }).waitFor();
    expect(await notice.count()).toBe(0);
  });
});
