/**
 * GitHub as a task tracker (issue #30), against its embedded stand-in: the owner connects GitHub from the
 * Integrations panel through the stand-in's OAuth page ("Authorize") and the `/integration/github` return
 * route (the code and state in its query), picks a repository, makes an issue from a comment thread, the
 * issue's link shows on the thread, and closing the issue on "GitHub" resolves the thread live.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testComment } from "../apps/server/src/testing/anchors.ts";
import { type E2E, startE2E } from "./harness.ts";
import { capturedProject, type Site, serveSite, shot, signedIn } from "./helpers.ts";

describe("a task tracker (GitHub)", () => {
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

  it("connects through the OAuth page, makes an issue from a comment, and resolves the thread when it is closed", {
    timeout: 180_000,
  }, async () => {
    const { page, api } = await signedIn(e2e, "github-owner", "Olivia Owner");
    const { projectId, path, versionId } = await capturedProject(api, `${site.url}/page`, "Issues site");
    const posted = await api.post(
      `/api/versions/${versionId}/comments`,
      testComment("The heading is too small"),
    );
    expect(posted.status).toBe(201);
    const commentId = posted.body.data.id as string;

    await page.goto(`/project/${projectId}`);
    await page.getByRole("button", { name: "Integrations" }).click();
    const github = () =>
      page.getByRole("dialog", { name: "Integrations" }).getByRole("region", { name: "GitHub" });
    await github().getByRole("button", { name: "Connect GitHub" }).click();

    // The stand-in's authorize page, where GitHub sends an OAuth app's user.
    await page.getByRole("heading", { name: "Authorize Redline" }).waitFor();
    await page.getByLabel("Your GitHub username").fill("olivia-gh");
    await page.getByRole("button", { name: "Authorize", exact: true }).click();
    await page.getByText("GitHub connected successfully").waitFor();
    await page.waitForURL(`**/project/${projectId}`);
    expect(new URL(page.url()).search).toBe("");

    await page.getByRole("button", { name: "Integrations" }).click();
    await github().getByText("Connected as olivia-gh.").waitFor();
    await github().getByLabel("Repository").selectOption({ label: "website" });
    await github().getByRole("button", { name: "Save" }).click();
    await page.getByText("Settings saved.").waitFor();
    await shot(page, "integrations-github");
    await page.keyboard.press("Escape");

    await page.goto(`${path}/comment?id=${commentId}`);
    await page.getByRole("heading", { name: "Comment 1" }).waitFor();
    await page.getByRole("button", { name: "Create GitHub issue" }).click();
    await page.getByText("Comment added to GitHub").waitFor();
    const link = page.getByRole("link", { name: "Open in GitHub" });
    const issueUrl = (await link.getAttribute("href"))!;
    expect(issueUrl).toContain("/dev/github/olivia-gh/website/issues/1");

    // On "GitHub": the issue holds the comment and a link back; closing it resolves the thread here, live.
    const repo = await page.context().newPage();
    await repo.goto(issueUrl);
    await repo.getByRole("heading", { name: /The heading is too small/ }).waitFor();
    await repo.getByText(`${e2e.baseUrl}/project/${projectId}/`, { exact: false }).waitFor();
    await repo.getByRole("button", { name: "Close issue" }).click();
    await repo.getByRole("button", { name: "Reopen issue" }).waitFor();
    await page.getByRole("button", { name: "Reopen" }).waitFor({ timeout: 15_000 });
    await page.getByRole("region", { name: "Comment 1" }).getByText("Resolved", { exact: true }).waitFor();
    await shot(page, "github-issue-resolved");
  });
});
