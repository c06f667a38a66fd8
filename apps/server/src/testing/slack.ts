/**
 * Slack fixtures for API tests: the browser's part of the install (the stand-in's page allowed, then the
 * return route in the person's session), the stand-in's test controls, and an Events API request signed
 * with the app's signing secret.
 */
import { SLACK_TEAM, slackSignature } from "@redline/stand-ins";
import { expect } from "vitest";
import { EMBEDDED_SLACK_PATH } from "../integrations/slack/index.ts";
import type { Person } from "./people.ts";
import type { TestApp } from "./test-app.ts";
import { allow } from "./trackers.ts";

/** Connects the project's Slack as this person; answers the return route's response. */
export async function connectSlack(t: TestApp, person: Person, projectId: string) {
  const started = await person.client.post(`/api/projects/${projectId}/integrations/slack/connect`);
  expect(started.status).toBe(200);
  const authorize = new URL(started.body.data.url);
  expect(authorize.pathname).toBe(`${EMBEDDED_SLACK_PATH}/oauth/v2/authorize`);
  const back = await allow(t, authorize.toString());
  return person.client.get(`${back.pathname}${back.search}`);
}

/** One of the stand-in's test controls (`/dev/…`): GET without a body, else POST. */
export async function slackDev(t: TestApp, path: string, body?: unknown): Promise<any> {
  const answer = await fetch(`${t.url}${EMBEDDED_SLACK_PATH}/dev/${path}`, {
    method: body === undefined ? "GET" : "POST",
    ...(body !== undefined && {
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  });
  return answer.json();
}

/** An Events API `event_callback` of the test workspace, signed as Slack signs it. */
export async function sendSlackEvent(t: TestApp, event: Record<string, unknown>) {
  const body = JSON.stringify({ type: "event_callback", team_id: SLACK_TEAM.id, event });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const answer = await fetch(`${t.url}/api/integrations/slack/events`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-slack-request-timestamp": timestamp,
      "x-slack-signature": slackSignature(t.ctx.config.slack!.signingSecret, timestamp, body),
    },
    body,
  });
  return answer.status;
}
