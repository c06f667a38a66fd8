/**
 * The Slack integration's routes against the embedded Slack (packages/stand-ins/src/slack): the OAuth v2
 * install round trip with its signed state, the sealed bot token, the channel choice, SPEC §7's sync, the
 * Events API's signature, enable/disable and disconnect with SPEC §8's texts, and Slack failures answered
 * 'Something went wrong' with nothing changed.
 */
import { SLACK_CHANNELS, slackSignature } from "@redline/stand-ins";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectIntegrations } from "../../db/schema/index.ts";
import { expectRefused, type Person, signUpPerson } from "../../testing/people.ts";
import { connectSlack, slackDev } from "../../testing/slack.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers } from "../../testing/test-db.ts";

describe.each(drivers())("integrations: Slack (%s)", (driver) => {
  let t: TestApp;
  let owner: Person;
  let editor: Person;
  let commenter: Person;
  let projectId: string;
  const base = () => `/api/projects/${projectId}/integrations/slack`;
  const dev = (path: string, body?: unknown) => slackDev(t, path, body);
  const connect = (person: Person) => connectSlack(t, person, projectId);

  beforeAll(async () => {
    // The stand-in answers 500 when a test asks it to (a Slack outage).
    t = await startTestApp({ driver, allowServerErrors: true });
    [owner, editor, commenter] = await Promise.all([
      signUpPerson(t, "owner", "Olivia Owner"),
      signUpPerson(t, "editor"),
      signUpPerson(t, "commenter"),
    ]);
    projectId = (await owner.client.post("/api/projects", { title: "Slacked" })).body.data.id;
    for (const [person, access] of [
      [editor, "edit"],
      [commenter, "comment"],
    ] as const)
      await owner.client.post(`/api/projects/${projectId}/members`, { email: person.address, access });
  });
  afterAll(() => t.close());

  it("connects through Slack's OAuth v2 install, seals the token and returns to /integration/slack/{id}", async () => {
    await expectRefused(t, () => commenter.client.post(`${base()}/connect`), 403);
    const returned = await connect(owner);
    expect(returned.status).toBe(302);
    expect(returned.headers.get("location")).toBe(`/integration/slack/${projectId}`);
    const [row] = await t.ctx.database.db
      .select()
      .from(projectIntegrations)
      .where(eq(projectIntegrations.projectId, projectId));
    expect(row!.type).toBe("slack");
    expect(row!.secrets).not.toContain("xoxb-");
    const listed = await owner.client.get(`/api/projects/${projectId}/integrations`);
    expect(JSON.stringify(listed.body)).not.toContain("xoxb-");
    expect(listed.body.data.integrations).toEqual([
      expect.objectContaining({
        type: "slack",
        isEnabled: true,
        slack: { teamName: "Redline test workspace", channelId: null, channelName: null },
      }),
    ]);
  });

  it("refuses a return with a forged, foreign or missing state, nothing changed", async () => {
    const started = (await owner.client.post(`${base()}/connect`)).body.data.url as string;
    const state = new URL(started).searchParams.get("state")!;
    expect((await owner.client.get(`/api/integrations/slack/callback?code=x&state=${state}x`)).status).toBe(
      400,
    );
    expect((await owner.client.get("/api/integrations/slack/callback?code=x")).status).toBe(400);
    // Started by the owner, returned in the editor's browser.
    expect((await editor.client.get(`/api/integrations/slack/callback?code=x&state=${state}`)).status).toBe(
      401,
    );
  });

  it("lists the workspace's channels, keeps the one chosen, and posts a sync message there", async () => {
    await expectRefused(t, () => commenter.client.get(`${base()}/channels`), 403);
    const channels = await editor.client.get(`${base()}/channels`);
    expect(channels.body.data.map((c: { id: string }) => c.id).sort()).toEqual(
      SLACK_CHANNELS.map((c) => c.id).sort(),
    );
    expect((await owner.client.put(base(), { channelId: "C0NOSUCH00" })).status).toBe(400);
    expect((await owner.client.put(base(), { channelId: "" })).status).toBe(400);
    expect((await owner.client.post(`/api/projects/${projectId}/slack/sync`, { message: "x" })).status).toBe(
      400,
    );
    const chosen = await owner.client.put(base(), { channelId: SLACK_CHANNELS[1].id });
    expect(chosen.status).toBe(200);
    expect(chosen.body.data.slack).toEqual(
      expect.objectContaining({ channelId: SLACK_CHANNELS[1].id, channelName: SLACK_CHANNELS[1].name }),
    );
    const synced = await owner.client.post(`/api/projects/${projectId}/slack/sync`, {
      message: "Round 2 is up",
    });
    expect(synced.status).toBe(200);
    const { messages } = await dev(`messages?channel=${SLACK_CHANNELS[1].id}`);
    expect(messages.at(-1).text).toContain("Round 2 is up");
    expect(messages.at(-1).text).toContain(`${t.url}/project/${projectId}`);
    expect((await owner.client.post(`/api/projects/${projectId}/slack/sync`, { message: "" })).status).toBe(
      400,
    );
  });

  it("answers 'Something went wrong' when Slack fails (500, 429), and works again after", async () => {
    for (const status of [500, 429]) {
      await dev("fail", { method: "chat.postMessage", status });
      const failed = await owner.client.post(`/api/projects/${projectId}/slack/sync`, { message: "x" });
      expect(failed.status).toBe(502);
      expect(failed.body.message).toBe("Something went wrong");
    }
    expect((await owner.client.post(`/api/projects/${projectId}/slack/sync`, { message: "ok" })).status).toBe(
      200,
    );
  });

  it("accepts Slack's signed Events API requests only", async () => {
    expect((await dev("url-verification", {})).verified).toBe(true);
    const body = JSON.stringify({ type: "url_verification", challenge: "c" });
    const post = (headers: Record<string, string>) =>
      fetch(`${t.url}/api/integrations/slack/events`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
    const now = Math.floor(Date.now() / 1000);
    const secret = t.ctx.config.slack!.signingSecret;
    expect((await post({})).status).toBe(401);
    const forged = slackSignature("not-the-secret", String(now), body);
    expect(
      (await post({ "x-slack-signature": forged, "x-slack-request-timestamp": String(now) })).status,
    ).toBe(401);
    const stale = String(now - 600);
    expect(
      (
        await post({
          "x-slack-signature": slackSignature(secret, stale, body),
          "x-slack-request-timestamp": stale,
        })
      ).status,
    ).toBe(401);
  });

  it("unfurls a link to the connected project in its workspace", async () => {
    const link = `${t.url}/project/${projectId}`;
    const shared = await dev("share-link", { channel: SLACK_CHANNELS[1].id, url: link });
    expect(shared.delivered.status).toBe(200);
    const { unfurls } = await dev("messages");
    expect(unfurls.at(-1)).toEqual(
      expect.objectContaining({
        ts: shared.message.ts,
        unfurls: { [link]: expect.objectContaining({ title: "Slacked" }) },
      }),
    );
  });

  it("enables, disables and disconnects with SPEC's texts; a revoked token changes nothing here", async () => {
    const disabled = await owner.client.patch(`/api/projects/${projectId}/integrations/slack`, {
      isEnabled: false,
    });
    expect(disabled.body.message).toBe("Slack integrations disabled");
    const enabled = await owner.client.patch(`/api/projects/${projectId}/integrations/slack`, {
      isEnabled: true,
    });
    expect(enabled.body.message).toBe("Slack integrations enabled");
    await dev("revoke", {});
    const failed = await owner.client.get(`${base()}/channels`);
    expect(failed.status).toBe(502);
    expect(failed.body.message).toBe("Something went wrong");
    const gone = await owner.client.delete(`/api/projects/${projectId}/integrations/slack`);
    expect(gone.body.message).toBe("Slack disconnected successfully.");
    expect((await owner.client.get(`${base()}/channels`)).status).toBe(404);
  });
});
