/**
 * The Zapier/Webhook integration's journey (issue #30): an owner opens the project's Integrations panel,
 * connects a webhook to a receiver that verifies every request with the Standard Webhooks library, a
 * comment is posted, the receiver gets it signed, the panel's delivery log shows it delivered, a replay
 * sends it again with the same webhook-id, and disconnecting says SPEC §8's text. A free owner is offered
 * the upgrade instead.
 */
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testAnchor } from "../apps/server/src/testing/anchors.ts";
import { type E2E, startE2E } from "./harness.ts";
import { newProject, type Site, serveSite, shot, signedIn } from "./helpers.ts";

const anchor = testAnchor();

describe("the Zapier/Webhook integration", () => {
  let e2e: E2E;
  let receiver: Site;
  let secret = "";
  const received: { id: string; body: { type: string; data: Record<string, unknown> } }[] = [];
  let forged = 0;

  beforeAll(async () => {
    e2e = await startE2E();
    receiver = await serveSite((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        try {
          new Webhook(secret).verify(body, request.headers as Record<string, string>);
        } catch {
          forged += 1;
          return response.writeHead(401).end();
        }
        received.push({ id: String(request.headers["webhook-id"]), body: JSON.parse(body) });
        response.writeHead(204).end();
      });
    });
  });
  afterAll(async () => {
    await receiver?.close();
    await e2e?.close();
  });

  it("connects a webhook from the panel, delivers a comment signed, shows it, and replays it", async () => {
    const { page, api } = await signedIn(e2e, "hooks-owner", "Olivia Owner");
    const projectId = await newProject(api, "Hooked site");
    const added = await api.post(`/api/projects/${projectId}/pages`, { url: `${receiver.url}/page` });
    const { versionId } = added.body.data as { versionId: string };

    await page.goto(`/project/${projectId}`);
    await page.getByRole("button", { name: "Integrations" }).click();
    const panel = page.getByRole("dialog", { name: "Integrations" });
    await panel.getByLabel("Webhook URL").fill(`${receiver.url}/hooks`);
    await expect.poll(() => panel.getByLabel("Comment created").isChecked()).toBe(true);
    await panel.getByRole("button", { name: "Connect", exact: true }).click();
    await page.getByText("Zapier/Webhook connected successfully.").waitFor();
    secret = (await panel.getByTestId("webhook-secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);
    await panel.getByText("No deliveries yet").waitFor();

    const posted = await api.post(`/api/versions/${versionId}/comments`, {
      anchor,
      dotPosition: { x: 0.25, y: 0.5 },
      deviceWidth: 1280,
      comment: "The header is too tall",
    });
    expect(posted.status).toBe(201);
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);
    expect(received[0]!.body).toMatchObject({
      type: "comment.created",
      data: { projectId, text: "The header is too tall", actor: { name: "Olivia Owner" } },
    });

    const deliveries = panel.getByRole("table", { name: "Deliveries" });
    await deliveries.getByText("Delivered").waitFor({ timeout: 15_000 });
    await expect.poll(() => deliveries.getByRole("row").nth(1).textContent()).toContain("204");
    await shot(page, "integrations-webhook");

    await deliveries.getByRole("button", { name: "Replay the Comment created delivery" }).click();
    await page.getByText("Delivery queued again.").waitFor();
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(2);
    expect(received[1]!.id).toBe(received[0]!.id);
    expect(forged).toBe(0);

    await panel.getByRole("button", { name: "Disconnect" }).click();
    await page
      .getByRole("dialog", { name: "Disconnect Zapier/Webhook?" })
      .getByRole("button", { name: "Disconnect" })
      .click();
    await page.getByText("Zapier disconnected successfully.").waitFor();
    await panel.getByRole("button", { name: "Connect", exact: true }).waitFor();
  });

  it("offers a free owner the upgrade", async () => {
    e2e.app.ctx.config.plansEnabled = true;
    try {
      const { page, api } = await signedIn(e2e, "hooks-free", "Fay Free");
      const projectId = await newProject(api, "Free site");
      await page.goto(`/project/${projectId}`);
      await page.getByRole("button", { name: "Integrations" }).click();
      const panel = page.getByRole("dialog", { name: "Integrations" });
      await panel.getByText("Integrations are not included in this project owner's plan.").waitFor();
      await expect
        .poll(() => panel.getByRole("link", { name: "Upgrade now" }).getAttribute("href"))
        .toBe("/upgrade");
      await expect.poll(() => panel.getByLabel("Webhook URL").count()).toBe(0);
    } finally {
      e2e.app.ctx.config.plansEnabled = false;
    }
  });
});
