/**
 * Asana's journey (issue #30) against its embedded stand-in: the owner connects Asana from the
 * Integrations panel through the stand-in's OAuth page and the `/integration/asana` return route (the code
 * exchanged for an expiring token and its refresh token), picks a project — its webhook made through
 * Asana's handshake — creates a task from a comment thread, and completing the task in "Asana" (a signed
 * event that names the change, after which Redline reads the task) resolves the thread live.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testComment } from "../apps/server/src/testing/anchors.ts";
import { type E2E, startE2E } from "./harness.ts";
import { capturedProject, type Site, serveSite, shot, signedIn } from "./helpers.ts";

describe("a task tracker (Asana)", () => {
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

  it("connects from the panel, creates a task from a comment, and completing it in Asana resolves the thread", {
    timeout: 180_000,
  }, async () => {
    const { page, api } = await signedIn(e2e, "asana-owner", "Olivia Owner");
    const { projectId, path, versionId } = await capturedProject(api, `${site.url}/page`, "Asana site");
    const posted = await api.post(
      `/api/versions/${versionId}/comments`,
      testComment("The button label is cut off"),
    );
    expect(posted.status).toBe(201);
    const commentId = posted.body.data.id as string;

    await page.goto(`/project/${projectId}`);
    await page.getByRole("button", { name: "Integrations" }).click();
    const asana = () =>
      page.getByRole("dialog", { name: "Integrations" }).getByRole("region", { name: "Asana" });
    await asana().getByRole("button", { name: "Connect Asana" }).click();

    // The stand-in's OAuth page, back to /integration/asana with a code and the state.
    await page.getByRole("heading", { name: "Redline would like to access your Asana account" }).waitFor();
    await page.getByLabel("Your Asana name").fill("Ada Asana");
    await page.getByRole("button", { name: "Allow" }).click();
    await page.getByText("Asana connected successfully").waitFor();
    await page.waitForURL(`**/project/${projectId}`);

    await page.getByRole("button", { name: "Integrations" }).click();
    await asana().getByText("Connected as Ada Asana.").waitFor();
    await asana().getByLabel("Project").selectOption({ label: "Website feedback" });
    await asana().getByRole("button", { name: "Save" }).click();
    await page.getByText("Settings saved.").waitFor();
    await shot(page, "integrations-asana");
    await page.keyboard.press("Escape");

    await page.goto(`${path}/comment?id=${commentId}`);
    await page.getByRole("heading", { name: "Comment 1" }).waitFor();
    await page.getByRole("button", { name: "Create Asana task" }).click();
    await page.getByText("Comment added to Asana").waitFor();
    const taskUrl = (await page.getByRole("link", { name: "Open in Asana" }).getAttribute("href"))!;
    expect(taskUrl).toContain("/dev/asana/0/");

    // In "Asana": the task holds the comment; completing it resolves the thread here, live.
    const tasks = await page.context().newPage();
    await tasks.goto(taskUrl);
    await tasks.getByRole("heading", { name: "The button label is cut off" }).waitFor();
    await tasks.getByText(`${e2e.baseUrl}/project/${projectId}/`, { exact: false }).waitFor();
    await tasks.getByRole("button", { name: "Mark complete" }).click();
    await tasks.getByText("Completed", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Reopen" }).waitFor({ timeout: 15_000 });
    await page.getByRole("region", { name: "Comment 1" }).getByText("Resolved", { exact: true }).waitFor();
    await shot(page, "asana-task-resolved");
  });
});
