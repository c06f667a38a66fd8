/**
 * A task tracker's journey (issue #30), Trello against its embedded stand-in: the owner connects Trello
 * from the Integrations panel through the stand-in's authorize page and the `/integration/trello` return
 * route (the token in the URL's fragment, the state forwarded to the callback), picks a board and list,
 * creates a card from a comment thread, the card's link shows on the thread, and archiving the card on
 * "Trello" resolves the thread live.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testComment } from "../apps/server/src/testing/anchors.ts";
import { type E2E, startE2E } from "./harness.ts";
import { capturedProject, type Site, serveSite, shot, signedIn } from "./helpers.ts";

describe("a task tracker (Trello)", () => {
  let e2e: E2E;
  let site: Site;

  beforeAll(async () => {
    e2e = await startE2E({ config: { captureWorker: true } });
    site = await serveSite((_request, response) => {
      response
        .writeHead(200, { "content-type": "text/html" })
        .end("<html><body><h1>Hello</h1></body></html>");
    });
  });
  afterAll(async () => {
    await site?.close();
    await e2e?.close();
  });

  it("connects through the return route, creates a card from a comment, and resolves the thread from the card", {
    timeout: 180_000,
  }, async () => {
    const { page, api } = await signedIn(e2e, "trello-owner", "Olivia Owner");
    const { projectId, path, versionId } = await capturedProject(api, `${site.url}/page`, "Tracked site");
    const posted = await api.post(
      `/api/versions/${versionId}/comments`,
      testComment("The heading is too small"),
    );
    expect(posted.status).toBe(201);
    const commentId = posted.body.data.id as string;

    await page.goto(`/project/${projectId}`);
    await page.getByRole("button", { name: "Integrations" }).click();
    const trello = () =>
      page.getByRole("dialog", { name: "Integrations" }).getByRole("region", { name: "Trello" });
    await trello().getByRole("button", { name: "Connect Trello" }).click();

    // The stand-in's authorize page, as Trello's client.js sends a browser there.
    await page.getByRole("heading", { name: "Let Redline use your account?" }).waitFor();
    await page.getByLabel("Your Trello name").fill("Tess Trello");
    await page.getByRole("button", { name: "Allow" }).click();
    await page.getByText("Trello connected successfully").waitFor();
    await page.waitForURL(`**/project/${projectId}`);
    expect(new URL(page.url()).hash).toBe("");

    await page.getByRole("button", { name: "Integrations" }).click();
    await trello().getByText("Connected as Tess Trello.").waitFor();
    await trello().getByLabel("List").selectOption({ label: "To Do" });
    await trello().getByRole("button", { name: "Save" }).click();
    await page.getByText("Settings saved.").waitFor();
    await shot(page, "integrations-trello");
    await page.keyboard.press("Escape");

    await page.goto(`${path}/comment?id=${commentId}`);
    await page.getByRole("heading", { name: "Comment 1" }).waitFor();
    await page.getByRole("button", { name: "Create Trello card" }).click();
    await page.getByText("Comment added to Trello").waitFor();
    const link = page.getByRole("link", { name: "Open in Trello" });
    const cardUrl = (await link.getAttribute("href"))!;
    expect(cardUrl).toContain("/dev/trello/c/");

    // On "Trello": the card holds the comment, and archiving it resolves the thread here, live.
    const board = await page.context().newPage();
    await board.goto(cardUrl);
    await board.getByRole("heading", { name: "The heading is too small" }).waitFor();
    await board.getByText(`${e2e.baseUrl}/project/${projectId}/`, { exact: false }).waitFor();
    await board.getByRole("button", { name: "Archive" }).click();
    await board.getByText("Archived", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Reopen" }).waitFor({ timeout: 15_000 });
    await page.getByRole("region", { name: "Comment 1" }).getByText("Resolved", { exact: true }).waitFor();
    await shot(page, "trello-card-resolved");
  });
});
