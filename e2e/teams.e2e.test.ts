/**
 * Teams in a real browser (SPEC §2 `/team`, §6 roles, §7 team-invite / team-access mails over SMTP):
 * an owner creates a team from the empty /team page, adds an existing user as manager and invites an
 * unknown address as member; the invitee signs up and is in the team; the manager sees '+ Add members'
 * and the member does not; the member leaves ('You left the team.') and the owner is notified; the owner
 * creates a second team and switches between them; a disabled team shows its owner the notice.
 */
import { TEAM_MESSAGES } from "@redline/shared";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { teams } from "../apps/server/src/db/schema/index.ts";
import { signUpVerified } from "../apps/server/src/testing/http-client.ts";
import { type E2E, startE2E, uniqueEmail } from "./harness.ts";
import { PASSWORD, shot, signedIn, signInPage, skipOnboarding, watchForText } from "./helpers.ts";

const ADD_MEMBERS = "+ Add members";

/** The header's Team link, the way a user goes there. */
async function toTeam(page: Page): Promise<void> {
  await page.getByRole("banner").getByRole("link", { name: "Team", exact: true }).click();
  await page.waitForURL((url) => url.pathname.startsWith("/team"));
}

describe("teams", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e.close());

  it("creates a team, adds a manager and invites a member who signs up; roles decide who adds members; a member leaves", async () => {
    const owner = await signedIn(e2e, "team-owner", "Olive Owner");
    const { page } = owner;

    // No team yet: the empty page offers to create one, named after the owner unless named.
    await toTeam(page);
    await page.getByRole("heading", { name: "Work together as a team" }).waitFor();
    expect(await page.getByLabel("Team name").getAttribute("placeholder")).toBe("Olive Owner's Team");
    await shot(page, "teams-01-empty");
    await page.getByLabel("Team name").fill("Acme Studio");
    await page.getByRole("button", { name: "Create team" }).click();
    await page.waitForURL((url) => /^\/team\/[^/]+$/.test(url.pathname));
    const teamId = new URL(page.url()).pathname.split("/")[2]!;
    await page.getByRole("heading", { name: "Acme Studio", level: 1 }).waitFor();
    const members = page.getByRole("list", { name: "Team members" });
    await members.getByText("Olive Owner").waitFor();

    // An existing user, as manager: added at once and told by mail who added them (team-invite).
    const managerEmail = uniqueEmail("team-manager");
    await signUpVerified(e2e.baseUrl, e2e.app.inbox!, managerEmail, PASSWORD, "Manny Manager");
    await page.getByRole("button", { name: ADD_MEMBERS }).click();
    await page.getByLabel("Email address").fill(managerEmail);
    await page.getByRole("combobox", { name: "Access" }).selectOption("manager");
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    const managerRow = members.getByRole("listitem").filter({ hasText: "Manny Manager" });
    await managerRow.waitFor();
    expect(await managerRow.getByRole("combobox", { name: "Role of Manny Manager" }).inputValue()).toBe(
      "manager",
    );
    const accessMail = await e2e.app.inbox!.waitFor(
      (mail) => mail.to.includes(managerEmail) && mail.text.includes("Acme Studio"),
    );
    expect(accessMail.text).toContain("Olive Owner");
    expect(accessMail.link).toContain(`/team/${teamId}`);

    // An unknown address, as member: listed as invited, and the team-invite mail names the inviter.
    const inviteeEmail = uniqueEmail("team-invitee");
    await page.getByLabel("Email address").fill(inviteeEmail);
    await page.getByRole("combobox", { name: "Access" }).selectOption("member");
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    const invitedRow = members.getByRole("listitem").filter({ hasText: inviteeEmail });
    await invitedRow.getByText("Invited", { exact: true }).waitFor();
    const inviteMail = await e2e.app.inbox!.waitFor(
      (mail) => mail.to.includes(inviteeEmail) && mail.text.includes("Acme Studio"),
    );
    expect(inviteMail.text).toContain("Olive Owner");
    // Oneself: refused under the field, nothing added.
    await page.getByLabel("Email address").fill(owner.email);
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    await page.getByRole("alert").first().waitFor();
    expect(await members.getByRole("listitem").count()).toBe(3);
    await shot(page, "teams-02-owner");

    // The invitee signs up and is in the team, as a member: no '+ Add members'.
    await signUpVerified(e2e.baseUrl, e2e.app.inbox!, inviteeEmail, PASSWORD, "Ivy Invitee");
    const invitee = await signInPage(e2e, inviteeEmail);
    await toTeam(invitee);
    await invitee.getByRole("heading", { name: "Acme Studio", level: 1 }).waitFor();
    const inviteeMembers = invitee.getByRole("list", { name: "Team members" });
    await inviteeMembers.getByText("Ivy Invitee").waitFor();
    expect(await invitee.getByRole("button", { name: ADD_MEMBERS }).count()).toBe(0);
    expect(await invitee.getByRole("combobox", { name: /^Role of/ }).count()).toBe(0);
    await shot(invitee, "teams-03-member");
    // The owner's open page follows: the invitation became Ivy.
    await members.getByRole("listitem").filter({ hasText: "Ivy Invitee" }).waitFor();

    // The manager sees '+ Add members'.
    const manager = await signInPage(e2e, managerEmail);
    await toTeam(manager);
    await manager.getByRole("heading", { name: "Acme Studio", level: 1 }).waitFor();
    await manager.getByRole("button", { name: ADD_MEMBERS }).waitFor();

    // The member leaves: the team is gone from their /team, and the owner is notified.
    await invitee.getByRole("button", { name: "Leave team" }).click();
    const confirm = invitee.getByRole("dialog", { name: "Leave this team?" });
    await confirm.getByRole("button", { name: "Leave team" }).click();
    await invitee.getByText(TEAM_MESSAGES.left, { exact: true }).waitFor();
    await invitee.getByRole("heading", { name: "Work together as a team" }).waitFor();
    await members.getByRole("listitem").filter({ hasText: "Ivy Invitee" }).waitFor({ state: "detached" });
    await expect
      .poll(async () =>
        ((await owner.api.get("/api/notifications")).body.data as { type: string }[]).map((n) => n.type),
      )
      .toContain("team-member-left");
    await page
      .getByText(/Ivy Invitee left your team/)
      .first()
      .waitFor();
    await shot(page, "teams-04-member-left");

    // Another team of one's own, from the team page; the switcher then offers both, and remembers the pick.
    await page.getByRole("button", { name: "New team" }).click();
    const create = page.getByRole("dialog", { name: "New team" });
    await create.getByLabel("Team name").fill("Side Project");
    await create.getByRole("button", { name: "Create team" }).click();
    await page.getByRole("heading", { name: "Side Project", level: 1 }).waitFor();
    const switcher = page.getByRole("combobox", { name: "Show team" });
    expect(await switcher.locator("option").allTextContents()).toEqual(["Acme Studio", "Side Project"]);
    await switcher.selectOption({ label: "Acme Studio" });
    await page.getByRole("heading", { name: "Acme Studio", level: 1 }).waitFor();
    await page.goto("/team");
    await page.getByRole("heading", { name: "Acme Studio", level: 1 }).waitFor();

    // A disabled team (SPEC §4): its owner sees the notice on /team, and nobody changes it meanwhile.
    await e2e.app.ctx.database.db.update(teams).set({ isDisabled: true }).where(eq(teams.id, teamId));
    await page.reload();
    const notice = page.getByRole("status").filter({ hasText: TEAM_MESSAGES.disabled });
    await notice.waitFor();
    // Only an operator enables it again (/admin, ADR 0035): the notice sends nobody to /upgrade.
    expect(await notice.textContent()).toContain("this instance's administrator enables it again");
    expect(await notice.getByRole("link").count()).toBe(0);
    expect(await page.getByRole("button", { name: ADD_MEMBERS }).count()).toBe(0);
    await shot(page, "teams-05-disabled");
    // The manager, not its owner, gets no notice; nor does the owner on another page.
    await manager.reload();
    await manager.getByRole("heading", { name: "Acme Studio", level: 1 }).waitFor();
    expect(await manager.getByText(TEAM_MESSAGES.disabled).count()).toBe(0);
    expect(await manager.getByRole("button", { name: ADD_MEMBERS }).count()).toBe(0);
  });

  it("leaving a team says 'You left the team.' and nothing else, from /team and from the team's own address", async () => {
    const owner = await signedIn(e2e, "leave-owner", "Lena Owner");
    for (const [index, from] of (["/team", "team address"] as const).entries()) {
      const teamId = (await owner.api.post("/api/teams", { product: "web", name: `Leave ${index}` })).body
        .data.id as string;
      const member = await signedIn(e2e, `leaver-${index}`, "Lee Leaver");
      await owner.api.post(`/api/teams/${teamId}/members`, { email: member.email, access: "member" });
      const { page } = member;
      await page.goto(from === "/team" ? "/team" : `/team/${teamId}`);
      await page.getByRole("heading", { name: `Leave ${index}`, level: 1 }).waitFor();
      await page.getByRole("list", { name: "Team members" }).getByText("Lee Leaver").waitFor();
      const sawNotFound = await watchForText(page, TEAM_MESSAGES.notAccessible);
      await page.getByRole("button", { name: "Leave team" }).click();
      await page
        .getByRole("dialog", { name: "Leave this team?" })
        .getByRole("button", { name: "Leave team" })
        .click();
      await page.getByText(TEAM_MESSAGES.left, { exact: true }).waitFor();
      await page.getByRole("heading", { name: "Work together as a team" }).waitFor();
      await page.waitForURL((url) => url.pathname === "/team");
      // The realtime 'teams.changed' and the refetches it starts have come and gone by now.
      await page.waitForTimeout(1500);
      expect(await sawNotFound(), `leaving from ${from}`).toBe(false);
      if (index === 1) await shot(page, "teams-06-left");
      await page.close();
    }
  }, 120_000);

  it("an invited address signs up through the invitation and lands on the team it was invited to", async () => {
    const owner = await signedIn(e2e, "invite-owner", "Ines Owner");
    const teamId = (await owner.api.post("/api/teams", { product: "web", name: "Invite Studio" })).body.data
      .id as string;
    const address = uniqueEmail("invited-signup");
    await owner.api.post(`/api/teams/${teamId}/members`, { email: address, access: "member" });
    const invitation = await e2e.app.inbox!.waitFor(
      (mail) => mail.to.includes(address) && mail.text.includes("Invite Studio"),
    );

    // The invitation's link: the sign-up form, which keeps where it leads.
    const page = await e2e.newPage();
    await page.goto(invitation.link!);
    await page.getByLabel("Full name").fill("Ivo Invited");
    await page.getByLabel("Email", { exact: true }).fill(address);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText(`We sent a verification link to ${address}`).waitFor();
    const verification = await e2e.app.inbox!.waitFor(
      (mail) => mail.to.includes(address) && Boolean(mail.link?.includes("verifyEmail")),
    );
    // The verification link goes on to the team (SPEC §2: after sign-in, the URL originally asked for).
    await page.goto(verification.link!);
    await page.waitForURL((url) => url.pathname === `/team/${teamId}`);
    // A new account's first screens are seen (onboarding.e2e.test.ts walks them): this journey is the team.
    await skipOnboarding(page);
    await page.getByRole("heading", { name: "Invite Studio", level: 1 }).waitFor();
    await page.getByRole("list", { name: "Team members" }).getByText("Ivo Invited").waitFor();
    await shot(page, "teams-07-invited-signed-up");
  }, 120_000);
});
