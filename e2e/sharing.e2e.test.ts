import { accessLabel, MESSAGES, SHARING_MESSAGES } from "@redline/shared";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, signUpVerified } from "../apps/server/src/testing/http-client.ts";
import { type E2E, startE2E, uniqueEmail } from "./harness.ts";
import { newProject, ONBOARDED, PASSWORD, shot, signedIn } from "./helpers.ts";

let e2e: E2E;

const png = (background = "#e5383b") =>
  sharp({ create: { width: 640, height: 400, channels: 3, background } })
    .png()
    .toBuffer();

async function signInUi(page: Page, email: string): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

async function uploadPage(api: ApiClient, projectId: string, name: string, color?: string) {
  const added = await api.upload(`/api/projects/${projectId}/uploads`, {
    name: `${name}.png`,
    type: "image/png",
    bytes: await png(color),
  });
  expect(added.status).toBe(201);
  return added.body.data as { pageId: string; versionId: string };
}

async function share(owner: ApiClient, projectId: string, email: string, access: string) {
  const shared = await owner.post(`/api/projects/${projectId}/members`, { email, access });
  expect(shared.status).toBe(201);
}

/** The share modal, opened from the project's title bar. */
async function openShareFromBar(page: Page, title: string) {
  await page.getByRole("button", { name: "Share", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Share “${title}”` });
  await dialog.getByRole("list", { name: "People with access" }).waitFor();
  return dialog;
}

beforeAll(async () => {
  e2e = await startE2E();
});

afterAll(() => e2e.close());

describe("sharing with people", () => {
  it("shows a project shared while the list is open, and drops it when access is taken away", async () => {
    const ownerEmail = uniqueEmail("live-owner");
    const owner = await signUpVerified(e2e.baseUrl, e2e.app.inbox!, ownerEmail, PASSWORD, "Olive Owner");
    const bob = await signedIn(e2e, "live-bob", "Bob Builder");
    const card = bob.page
      .getByRole("list", { name: "Projects" })
      .getByRole("listitem")
      .filter({ hasText: "Shared while open" });
    const projectId = await newProject(owner, "Shared while open", "image");

    await share(owner, projectId, bob.email, "comment");
    await card.waitFor(); // no reload

    const people = (await owner.get(`/api/projects/${projectId}/members`)).body.data as {
      id: string;
      email: string;
    }[];
    const bobEntry = people.find((person) => person.email === bob.email)!;
    expect((await owner.delete(`/api/projects/${projectId}/members/${bobEntry.id}`)).status).toBe(200);
    await expect.poll(() => card.count()).toBe(0);
  });

  it("shares with an existing user and invites an unknown address; both then see the project", async () => {
    const owner = await signedIn(e2e, "owner", "Olive Owner");
    const projectId = await newProject(owner.api, "Launch site", "image");
    const commenterEmail = uniqueEmail("commenter");
    const commenterApi = await signUpVerified(
      e2e.baseUrl,
      e2e.app.inbox!,
      commenterEmail,
      PASSWORD,
      "Grace Hopper",
    );
    // Her first screens are seen (onboarding.e2e.test.ts walks them): this journey is about sharing.
    await commenterApi.patch("/api/me", { onboarding: ONBOARDED });

    // From the card: the share button sits in its top right corner, shown on hover.
    await owner.page.reload();
    const card = owner.page.getByRole("list", { name: "Projects" }).getByRole("listitem").first();
    await card.hover();
    await shot(owner.page, "19-card-share-button");
    await card.getByRole("button", { name: "Share Launch site" }).click();
    const dialog = owner.page.getByRole("dialog", { name: "Share “Launch site”" });
    const people = dialog.getByRole("list", { name: "People with access" });
    await people.getByText("Olive Owner").waitFor();
    await dialog.getByLabel("Email address").fill(commenterEmail);
    await dialog.getByLabel("Access", { exact: true }).selectOption("comment");
    await dialog.getByRole("button", { name: "Share", exact: true }).click();
    await owner.page.getByText(SHARING_MESSAGES.shared, { exact: true }).waitFor();
    const grace = people.getByRole("listitem").filter({ hasText: "Grace Hopper" });
    await expect.poll(() => grace.getByLabel("Access for Grace Hopper").inputValue()).toBe("comment");

    // The form empties itself once the person is added; then sharing with oneself is refused.
    await expect.poll(() => dialog.getByLabel("Email address").inputValue()).toBe("");
    await dialog.getByLabel("Email address").fill(owner.email);
    await dialog.getByRole("button", { name: "Share", exact: true }).click();
    await dialog.getByRole("alert").getByText("You cannot share a project with yourself.").waitFor();

    // An unknown address: an invitation mail, the person listed as invited.
    const inviteeEmail = uniqueEmail("invitee");
    await dialog.getByLabel("Email address").fill(inviteeEmail);
    await dialog.getByLabel("Access", { exact: true }).selectOption("view");
    await dialog.getByRole("button", { name: "Share", exact: true }).click();
    const invited = people.getByRole("listitem").filter({ hasText: inviteeEmail });
    await invited.getByText("Invited", { exact: true }).waitFor();
    await shot(owner.page, "20-share-modal");
    const invitation = await e2e.app.inbox!.waitFor(
      (mail) => mail.to.includes(inviteeEmail) && mail.subject.includes("invited you to a project"),
    );
    expect(invitation.link).toBe(`${e2e.baseUrl}/project/${projectId}`);

    // The existing user sees the project in the lists with comment access.
    const commenter = await e2e.newPage();
    await commenter.goto("/");
    await signInUi(commenter, commenterEmail);
    await commenter.waitForURL((url) => url.pathname === "/projects");
    const shared = commenter.getByRole("list", { name: "Projects" }).getByRole("listitem");
    await shared.getByRole("heading", { name: "Launch site" }).waitFor();
    await shared.getByText(accessLabel("comment")).waitFor();

    // The invitee follows the mail's link, signs up and verifies, signs in, and lands on the project.
    const invitee = await e2e.newPage();
    await invitee.goto(invitation.link!);
    await invitee.waitForURL((url) => url.pathname === "/" && url.searchParams.has("goto"));
    const inviteeApi = await signUpVerified(
      e2e.baseUrl,
      e2e.app.inbox!,
      inviteeEmail,
      PASSWORD,
      "Ivy Invitee",
    );
    await inviteeApi.patch("/api/me", { onboarding: ONBOARDED });
    await signInUi(invitee, inviteeEmail);
    await invitee.waitForURL((url) => url.pathname === `/project/${projectId}`);
    await invitee.getByRole("heading", { name: /Launch site/ }).waitFor();
    await invitee.getByText(accessLabel("view"), { exact: true }).waitFor();
  });

  it("gives a commenter no way to add pages or share, and the API refuses both", async () => {
    const owner = await signUpVerified(e2e.baseUrl, e2e.app.inbox!, uniqueEmail("owner"), PASSWORD, "Olive");
    const projectId = await newProject(owner, "Client review", "image");
    await uploadPage(owner, projectId, "homepage");
    const commenter = await signedIn(e2e, "commenter", "Carl Commenter");
    await share(owner, projectId, commenter.email, "comment");

    const { page, api } = commenter;
    await page.goto(`/project/${projectId}`);
    await page.getByRole("heading", { name: "homepage" }).waitFor();
    await page.getByText(accessLabel("comment"), { exact: true }).waitFor();
    expect(await page.getByLabel("Page URL").count()).toBe(0);
    expect(await page.getByLabel("Upload image or PDF").count()).toBe(0);

    const dialog = await openShareFromBar(page, "Client review");
    const people = dialog.getByRole("list", { name: "People with access" });
    await people.getByText("Carl Commenter").waitFor();
    expect(await dialog.getByLabel("Email address").count()).toBe(0);
    expect(await dialog.getByRole("combobox").count()).toBe(0);
    expect(await dialog.getByRole("switch").count()).toBe(0);
    expect(await dialog.getByRole("button", { name: /^More actions/ }).count()).toBe(0);
    expect(await dialog.getByText("Public link").count()).toBe(0);
    await people.getByText(accessLabel("owner"), { exact: true }).waitFor();
    await shot(page, "27-share-modal-read-only");

    const addPage = await api.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/" });
    expect(addPage.status).toBe(403);
    const addMember = await api.post(`/api/projects/${projectId}/members`, {
      email: uniqueEmail("friend"),
      access: "edit",
    });
    expect(addMember.status).toBe(403);
    expect((await api.patch(`/api/projects/${projectId}/sharing`, { public: true })).status).toBe(403);
  });

  it("shows a viewer the pages and no editing control; a viewer may leave", async () => {
    const owner = await signUpVerified(e2e.baseUrl, e2e.app.inbox!, uniqueEmail("owner"), PASSWORD, "Olive");
    const projectId = await newProject(owner, "Read only", "image");
    const first = await uploadPage(owner, projectId, "landing", "#1f7a4d");
    await uploadPage(owner, projectId, "checkout");
    const approved = await owner.put(`/api/pages/${first.pageId}/approval`, { approved: true });
    expect(approved.status).toBe(200);
    const viewer = await signedIn(e2e, "viewer", "Vera Viewer");
    await share(owner, projectId, viewer.email, "view");

    const { page } = viewer;
    await page.goto(`/project/${projectId}`);
    const pages = page.getByRole("list", { name: "Pages of this project" });
    await pages.getByText("landing").waitFor();
    await pages.getByText("checkout").waitFor();
    await pages.getByRole("listitem").filter({ hasText: "landing" }).getByText("Approved").waitFor();
    expect(await page.getByLabel("Page URL").count()).toBe(0);
    expect(await page.getByRole("button", { name: /^(Delete|Rename)/ }).count()).toBe(0);

    await page.goto(`/project/${projectId}/${first.pageId}/${first.versionId}/comment`);
    await page.getByRole("img", { name: "landing" }).waitFor();
    await page.getByText("Approved", { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: /Approve/ }).count()).toBe(0);

    await page.getByRole("link", { name: "Back to project" }).click();
    const dialog = await openShareFromBar(page, "Read only");
    expect(await dialog.getByLabel("Email address").count()).toBe(0);
    expect(await dialog.getByRole("switch").count()).toBe(0);
    await dialog.getByRole("button", { name: "Leave project" }).click();
    await page
      .getByRole("dialog", { name: "Leave this project?" })
      .getByRole("button", { name: "Leave project" })
      .click();
    await page.getByText(SHARING_MESSAGES.removedSelf, { exact: true }).waitFor();
    await page.waitForURL((url) => url.pathname === "/projects");
    await page.getByRole("heading", { name: "No projects yet" }).waitFor();
    expect(await page.getByText(MESSAGES.projectNotFound).count()).toBe(0);
  });
});

describe("ownership and approvals", () => {
  it("transfers ownership through the modal: the new owner is 'Owner', the old one has edit access", async () => {
    const owner = await signedIn(e2e, "owner", "Olive Owner");
    const projectId = await newProject(owner.api, "Handover", "image");
    const heir = await signedIn(e2e, "heir", "Hal Heir");
    await share(owner.api, projectId, heir.email, "comment");

    await owner.page.goto(`/project/${projectId}`);
    const dialog = await openShareFromBar(owner.page, "Handover");
    await dialog.getByRole("button", { name: "More actions for Hal Heir" }).click();
    await owner.page.getByRole("menuitem", { name: "Make owner" }).click();
    const confirm = owner.page.getByRole("dialog", { name: "Transfer ownership?" });
    await confirm.getByText("Hal Heir becomes the owner of “Handover”. You keep edit access.").waitFor();
    await confirm.getByRole("button", { name: "Transfer ownership" }).click();
    await owner.page.getByText("Hal Heir is now the owner.", { exact: true }).waitFor();

    const people = dialog.getByRole("list", { name: "People with access" });
    await expect
      .poll(() => people.getByRole("listitem").allInnerTexts())
      .toEqual([expect.stringMatching(/Hal Heir[\s\S]*Owner/), expect.stringMatching(/Olive Owner[\s\S]*/)]);
    // The old owner now manages members as an editor, and can no longer transfer.
    expect(await people.getByLabel("Access for Olive Owner").count()).toBe(0);
    await people.getByRole("button", { name: "Leave project" }).waitFor();
    await dialog.getByRole("button", { name: "Done" }).click();
    await owner.page.locator(".project-bar").getByText(accessLabel("edit"), { exact: true }).waitFor();

    await heir.page.reload();
    const card = heir.page.getByRole("list", { name: "Projects" }).getByRole("listitem");
    await card.getByRole("heading", { name: /Handover/ }).waitFor();
    await card.getByText(accessLabel("owner"), { exact: true }).waitFor();
    await owner.page.goto("/projects");
    await owner.page
      .getByRole("list", { name: "Projects" })
      .getByText(accessLabel("edit"), { exact: true })
      .waitFor();
  });

  it("approves and unapproves a page, and lets a chosen approver do it too", async () => {
    const owner = await signedIn(e2e, "owner", "Olive Owner");
    const projectId = await newProject(owner.api, "Sign-off", "image");
    const { pageId, versionId } = await uploadPage(owner.api, projectId, "pricing");
    const reviewUrl = `/project/${projectId}/${pageId}/${versionId}/comment`;

    const { page } = owner;
    await page.goto(reviewUrl);
    const approve = page.getByRole("button", { name: "Approve page" });
    expect(await approve.getAttribute("aria-pressed")).toBe("false");
    await approve.click();
    await page.getByText(SHARING_MESSAGES.approved, { exact: true }).waitFor();
    const approvedButton = page.getByRole("button", { name: "Approved" });
    expect(await approvedButton.getAttribute("aria-pressed")).toBe("true");
    await shot(page, "21-page-approved");
    await approvedButton.click();
    await page.getByText(SHARING_MESSAGES.unapproved, { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Approve page" }).getAttribute("aria-pressed")).toBe(
      "false",
    );

    // A commenter made an approver through the modal's switch may approve.
    const client = await signedIn(e2e, "client", "Cleo Client");
    await share(owner.api, projectId, client.email, "comment");
    await client.page.goto(reviewUrl);
    await client.page.getByRole("img", { name: "pricing" }).waitFor();
    expect(await client.page.getByRole("button", { name: "Approve page" }).count()).toBe(0);

    await page.getByRole("link", { name: "Back to project" }).click();
    const dialog = await openShareFromBar(page, "Sign-off");
    const approverSwitch = dialog.getByRole("switch", { name: "Approver: Cleo Client" });
    expect(await approverSwitch.getAttribute("aria-checked")).toBe("false");
    await approverSwitch.click();
    await page.getByText(SHARING_MESSAGES.approverUpdated, { exact: true }).waitFor();
    await expect.poll(() => approverSwitch.getAttribute("aria-checked")).toBe("true");

    await client.page.reload();
    await client.page.getByRole("button", { name: "Approve page" }).click();
    await client.page.getByText(SHARING_MESSAGES.approved, { exact: true }).waitFor();
    await page.reload();
    await page
      .getByRole("list", { name: "Pages of this project" })
      .getByText("Approved", { exact: true })
      .waitFor();
  });
});
