/**
 * The Slack client against the embedded Slack stand-in (packages/stand-ins/src/slack): the OAuth v2
 * install round trip, the Web API calls Redline makes, the failures it must tell apart (revoked, 500, 429),
 * and the Events API signature the stand-in signs with and the app checks.
 */
import { SLACK_CHANNELS, SLACK_TEAM, slackSignature } from "@redline/stand-ins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { createSlackClient, EMBEDDED_SLACK_PATH, type SlackClient, verifySlackSignature } from "./index.ts";

async function install(t: TestApp, slack: SlackClient, state: string): Promise<string> {
  const page = await fetch(slack.authorizeUrl(state));
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("Redline is requesting permission");
  const params = Object.fromEntries(new URL(slack.authorizeUrl(state)).searchParams);
  const approved = await fetch(`${t.url}${EMBEDDED_SLACK_PATH}/oauth/v2/authorize`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...params, decision: "allow" }).toString(),
    redirect: "manual",
  });
  expect(approved.status).toBe(302);
  const back = new URL(approved.headers.get("location")!);
  expect(`${back.origin}${back.pathname}`).toBe(slack.redirectUri);
  expect(back.searchParams.get("state")).toBe(state);
  return back.searchParams.get("code")!;
}

describe("the Slack client against the embedded Slack", () => {
  let t: TestApp;
  let slack: SlackClient;

  beforeAll(async () => {
    // The stand-in answers 500 when a test asks it to (a Slack outage).
    t = await startTestApp({ allowServerErrors: true });
    slack = createSlackClient(t.ctx.config)!;
  });
  afterAll(() => t.close());

  const dev = (path: string, body: unknown) =>
    fetch(`${t.url}${EMBEDDED_SLACK_PATH}/dev/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("installs through OAuth v2, lists channels, posts in a thread, unfurls", async () => {
    const code = await install(t, slack, "state-1");
    const installed = await slack.exchangeCode(code);
    expect(installed).toMatchObject({ teamId: SLACK_TEAM.id, teamName: SLACK_TEAM.name });
    expect(installed.botToken).toMatch(/^xoxb-/);
    // A code works once.
    await expect(slack.exchangeCode(code)).rejects.toMatchObject({ kind: "refused", code: "invalid_code" });

    const channels = await slack.listChannels(installed.botToken);
    expect(channels.map((channel) => channel.id).sort()).toEqual(SLACK_CHANNELS.map((c) => c.id).sort());

    const channel = SLACK_CHANNELS[1].id;
    const root = await slack.postMessage(installed.botToken, { channel, text: "A new comment" });
    const reply = await slack.postMessage(installed.botToken, {
      channel,
      text: "A reply",
      threadTs: root.ts,
    });
    await slack.unfurl(installed.botToken, {
      channel,
      ts: root.ts,
      unfurls: { "https://x.test/a": { title: "A page" } },
    });
    const seen = (await (
      await fetch(`${t.url}${EMBEDDED_SLACK_PATH}/dev/messages?channel=${channel}`)
    ).json()) as { messages: { ts: string; thread_ts?: string; text: string }[]; unfurls: unknown[] };
    expect(seen.messages).toEqual([
      expect.objectContaining({ ts: root.ts, text: "A new comment" }),
      expect.objectContaining({ ts: reply.ts, thread_ts: root.ts, text: "A reply" }),
    ]);
    expect(seen.unfurls).toHaveLength(1);
    await expect(
      slack.postMessage(installed.botToken, { channel: "C0NOSUCH00", text: "x" }),
    ).rejects.toMatchObject({ kind: "refused", code: "channel_not_found" });
  });

  it("tells a rate limit and a 500 (wait and retry) from a revoked token", async () => {
    const { botToken } = await slack.exchangeCode(await install(t, slack, "state-2"));
    const channel = SLACK_CHANNELS[0].id;
    await dev("fail", { method: "chat.postMessage", status: 429 });
    await expect(slack.postMessage(botToken, { channel, text: "x" })).rejects.toMatchObject({
      kind: "retry",
    });
    await dev("fail", { method: "chat.postMessage", status: 500 });
    const failed = await slack.postMessage(botToken, { channel, text: "x" }).catch((error) => error);
    expect(failed).toMatchObject({ kind: "retry" });
    expect(String(failed.message)).not.toContain(botToken);
    await slack.postMessage(botToken, { channel, text: "back" });
    await dev("revoke", {});
    await expect(slack.postMessage(botToken, { channel, text: "x" })).rejects.toMatchObject({
      kind: "revoked",
    });
  });

  it("checks an Events API signature: the secret, the body and a five-minute window", () => {
    const secret = "8f742231b10e8888abcd99yyyzzz85a5";
    const body = '{"type":"event_callback"}';
    const now = 1_700_000_000;
    const signature = slackSignature(secret, String(now), body);
    const headers = { signature, timestamp: String(now) };
    expect(verifySlackSignature(secret, headers, body, now)).toBe(true);
    expect(verifySlackSignature(secret, headers, body, now + 301)).toBe(false);
    expect(verifySlackSignature("another-secret", headers, body, now)).toBe(false);
    expect(verifySlackSignature(secret, headers, `${body} `, now)).toBe(false);
    expect(verifySlackSignature(secret, { signature: undefined, timestamp: String(now) }, body, now)).toBe(
      false,
    );
  });
});
