/**
 * Team projects in a real browser (SPEC §4): a member creates a project in the team from the New project
 * modal ('Belongs to' defaults to the active team); the team's owner, who did not create it, finds it in
 * the list tagged with the team and can rename it; a collaborator sees it only once switched on in the
 * share modal's 'Team collaborators', and then only comments.
 */
import { TEAM_PROJECT_MESSAGES } from "@redline/shared";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E } from "./harness.ts";
import { shot, signedIn } from "./helpers.ts";

async function openFromList(page: Page, title: string) {
  await page.goto("/projects");
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });
  await card.waitFor();
  return card;
}

describe("team projects", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e.close());

  it("is editable by every member of the team, and a collaborator switched in can only comment", async () => {
    const owner = await signedIn(e2e, "tp-owner", "Olive Owner");
    const member = await signedIn(e2e, "tp-member", "Mia Member");
    const collaborator = await signedIn(e2e, "tp-collab", "Cole Collaborator");
    const teamId = (await owner.api.post("/api/teams", { product: "web", name: "Studio" })).body.data.id;
    for (const [who, access] of [
      [member, "member"],
      [collaborator, "collaborator"],
    ] as const)
      expect(
        (await owner.api.post(`/api/teams/${teamId}/members`, { email: who.email, access })).status,
      ).toBe(201);

    // The member creates the project; the team is chosen for them, as their only (active) team.
    const { page } = member;
    await page.reload();
    await page.getByRole("button", { name: "New project" }).first().click();
    await page.getByLabel("Project title").fill("Launch site");
    const belongsTo = page.getByRole("combobox", { name: "Belongs to" });
    await belongsTo.waitFor();
    expect(await belongsTo.inputValue()).toBe(teamId);
    await page.getByText("Everyone in the team can edit it.").waitFor();
    await shot(page, "team-projects-01-new");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/project/"));
    const projectId = new URL(page.url()).pathname.split("/")[2]!;
    await page.getByText("Team: Studio").waitFor();

    // The team's owner did not create it, and edits it all the same.
    const ownerCard = await openFromList(owner.page, "Launch site");
    await ownerCard.getByText("Team: Studio").waitFor();
    await ownerCard.getByText("Edit access").waitFor();
    await shot(owner.page, "team-projects-02-owner-list");
    await ownerCard.getByRole("button", { name: "Rename project: Launch site" }).click();
    await ownerCard.getByRole("textbox").fill("Launch site v2");
    await ownerCard.getByRole("textbox").press("Enter");
    await owner.page.getByRole("heading", { name: "Launch site v2" }).waitFor();

    // Before being switched on, the collaborator does not see it.
    await collaborator.page.reload();
    await collaborator.page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
    expect(await collaborator.page.getByRole("heading", { name: "Launch site v2" }).count()).toBe(0);

    // The member switches the collaborator on from the share modal.
    await page.getByRole("button", { name: "Share" }).click();
    const dialog = page.getByRole("dialog");
    const list = dialog.getByRole("list", { name: "Team collaborators" });
    const toggle = list.getByRole("switch", { name: "Cole Collaborator" });
    expect(await toggle.getAttribute("aria-checked")).toBe("false");
    await toggle.click();
    await page.getByText(TEAM_PROJECT_MESSAGES.collaboratorAdded).waitFor();
    await list.getByText("Can comment").waitFor();
    expect(await toggle.getAttribute("aria-checked")).toBe("true");
    await shot(page, "team-projects-03-share");
    await dialog.getByRole("button", { name: "Done" }).click();

    // The collaborator now finds it, with comment access only: no rename, no pages to add.
    const collaboratorCard = await openFromList(collaborator.page, "Launch site v2");
    await collaboratorCard.getByText("Comment access").waitFor();
    expect(await collaboratorCard.getByRole("button", { name: /^Rename project/ }).count()).toBe(0);
    await collaboratorCard.getByRole("link", { name: "Open Launch site v2" }).click();
    await collaborator.page.waitForURL((url) => url.pathname === `/project/${projectId}`);
    await collaborator.page.getByText("Team: Studio").waitFor();
    await collaborator.page.getByText("Comment access").waitFor();
    expect(await collaborator.page.getByRole("button", { name: /^Rename project/ }).count()).toBe(0);
    await shot(collaborator.page, "team-projects-04-collaborator");
    const asCollaborator = await collaborator.api.get(`/api/projects/${projectId}`);
    expect(asCollaborator.body.data.abilities).toMatchObject({
      comment: true,
      update: false,
      addPages: false,
    });
  });
});
