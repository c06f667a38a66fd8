/**
 * npm run bench:integrations — issue #30's figures: an event → the card made in each task tracker, and the
 * message posted to Slack, against the embedded stand-ins; and a webhook delivery's retry schedule under a
 * receiver that fails, times out and comes back.
 *
 * The app in-process on PostgreSQL (loopback), the stand-ins served by it as `npm start` serves them.
 * - Cards: a ticket reported on a board whose five trackers have the automatic rule on; from the ticket's
 *   POST until each tracker's card is made (its row `created`, read every 10 ms). Baseline in the same run:
 *   the same ticket then a person's "Create card" (the request waits for the tracker) — the same work,
 *   done in the person's request instead of by the ledger's consumer and the job queue.
 * - Slack: a comment pinned until its message is in the chosen channel (the stand-in's channel, read every
 *   10 ms). Baseline: the comment's own POST.
 * - Webhooks: a receiver answering 500, then not at all (the sender's timeout), then 204; the time between
 *   attempts against the schedule (the first retry's wait doubling per attempt, plus the timeout).
 * Goal (issue #30): event → card / message p95 < 2 s on loopback; the schedule held.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import type { TrackerType } from "@redline/shared";
import { SLACK_CHANNELS, type SlackMessage } from "@redline/stand-ins";
import { and, eq } from "drizzle-orm";
import { trackerCards } from "../../apps/server/src/db/schema/index.ts";
import { EMBEDDED_SLACK_PATH } from "../../apps/server/src/integrations/slack/index.ts";
import { testAnchor } from "../../apps/server/src/testing/anchors.ts";
import { type ApiClient, signUpVerified } from "../../apps/server/src/testing/http-client.ts";
import { startTestApp, type TestApp } from "../../apps/server/src/testing/test-app.ts";
import { allow, connectTracker } from "../../apps/server/src/testing/trackers.ts";
import { percentile, writeSection } from "../lib/report.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const PACE_MS = 250;
const TRACKERS: TrackerType[] = ["trello", "jira", "asana", "clickup", "github"];
const CHANNEL = SLACK_CHANNELS[1]!.id;

const ms = (value: number) => `${Math.round(value)} ms`;
const stats = (values: number[]) => ({ p50: percentile(values, 50), p95: percentile(values, 95) });

/** Polls every 10 ms until `done` answers true; the time it took from `since`. */
async function until(since: number, done: () => Promise<boolean>, limitMs = 30_000): Promise<number> {
  while (!(await done())) {
    if (performance.now() - since > limitMs) throw new Error(`waited past ${limitMs} ms`);
    await sleep(10);
  }
  return performance.now() - since;
}

async function person(t: TestApp, name: string): Promise<ApiClient> {
  const email = `bench-${randomBytes(4).toString("hex")}@example.com`;
  return signUpVerified(t.url, t.inbox!, email, undefined, name);
}

async function cards(t: TestApp, owner: ApiClient) {
  const board = (await owner.post("/api/projects", { title: "Shop bugs", type: "browse" })).body.data.id;
  const listId = (await owner.post(`/api/projects/${board}/lists`, { title: "To do" })).body.data.id;
  const base = `/api/projects/${board}/integrations`;
  const me = { client: owner, address: "", uid: "" };
  for (const tracker of TRACKERS) await connectTracker(t, me, { projectId: board, tracker });
  const rule = async (autoCreate: boolean) => {
    const { integrations } = (await owner.get(base)).body.data;
    for (const tracker of TRACKERS) {
      const { destination } = integrations.find((i: { type: string }) => i.type === tracker).tracker;
      const saved = await owner.put(`${base}/${tracker}`, {
        containerId: destination.containerId,
        listId: destination.listId,
        autoCreate,
      });
      if (saved.status !== 200)
        throw new Error(`the ${tracker} rule answered ${saved.status}: ${saved.body.message}`);
    }
  };
  const made = (ticketId: string, tracker: TrackerType) => async () => {
    const [row] = await t.ctx.database.db
      .select({ status: trackerCards.status })
      .from(trackerCards)
      .where(and(eq(trackerCards.subjectId, ticketId), eq(trackerCards.tracker, tracker)));
    return row?.status === "created";
  };
  const report = async (title: string) => {
    const answer = await owner.post(`/api/projects/${board}/tickets`, { listId, title });
    if (answer.status !== 201) throw new Error(`reporting a ticket answered ${answer.status}`);
    return answer.body.data.id as string;
  };

  const baseline = new Map<TrackerType, number[]>(TRACKERS.map((tracker) => [tracker, []]));
  const automatic = new Map<TrackerType, number[]>(TRACKERS.map((tracker) => [tracker, []]));
  await rule(false);
  for (let round = 0; round < ROUNDS; round++) {
    for (const tracker of TRACKERS) {
      const started = performance.now();
      const ticketId = await report(`Baseline ${round} ${tracker}`);
      const answer = await owner.post(`${base}/${tracker}/cards`, { subject: "ticket", id: ticketId });
      if (answer.status !== 201) throw new Error(`Create card (${tracker}) answered ${answer.status}`);
      baseline.get(tracker)!.push(performance.now() - started);
    }
    await sleep(PACE_MS);
  }
  await t.settled(60_000);
  await rule(true);
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    const ticketId = await report(`Automatic ${round}`);
    await Promise.all(
      TRACKERS.map(async (tracker) =>
        automatic.get(tracker)!.push(await until(started, made(ticketId, tracker))),
      ),
    );
    await sleep(PACE_MS);
  }
  return TRACKERS.map((tracker) => ({
    tracker,
    baseline: stats(baseline.get(tracker)!),
    automatic: stats(automatic.get(tracker)!),
  }));
}

async function slack(t: TestApp, owner: ApiClient) {
  const projectId = (await owner.post("/api/projects", { title: "Threads" })).body.data.id;
  const { versionId } = (
    await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/p" })
  ).body.data;
  const started = await owner.post(`/api/projects/${projectId}/integrations/slack/connect`);
  const back = await allow(t, started.body.data.url);
  await owner.get(`${back.pathname}${back.search}`);
  await owner.put(`/api/projects/${projectId}/integrations/slack`, { channelId: CHANNEL });
  const channel = async () =>
    (
      (await (await fetch(`${t.url}${EMBEDDED_SLACK_PATH}/dev/messages?channel=${CHANNEL}`)).json()) as {
        messages: SlackMessage[];
      }
    ).messages;
  const request: number[] = [];
  const posted: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const text = `Comment ${round} ${randomBytes(3).toString("hex")}`;
    const at = performance.now();
    const answer = await owner.post(`/api/versions/${versionId}/comments`, {
      anchor: testAnchor(),
      dotPosition: { x: 0.25, y: 0.5 },
      deviceWidth: 1280,
      comment: text,
    });
    if (answer.status !== 201) throw new Error(`a comment answered ${answer.status}`);
    request.push(performance.now() - at);
    posted.push(await until(at, async () => (await channel()).some((m) => m.text.includes(text))));
    await sleep(PACE_MS);
  }
  return { request: stats(request), posted: stats(posted) };
}

/** A receiver that fails, hangs, then answers; the time of each attempt. */
async function webhooks(t: TestApp, owner: ApiClient) {
  const plan = ["fail", "hang", "ok"];
  const attempts: number[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      attempts.push(performance.now());
      const behaviour = plan[attempts.length - 1] ?? "ok";
      if (behaviour === "hang") return;
      response.statusCode = behaviour === "fail" ? 500 : 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const projectId = (await owner.post("/api/projects", { title: "Hooks" })).body.data.id;
    const { versionId } = (
      await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/h" })
    ).body.data;
    await owner.put(`/api/projects/${projectId}/integrations/webhook`, { url, events: ["comment.created"] });
    const at = performance.now();
    await owner.post(`/api/versions/${versionId}/comments`, {
      anchor: testAnchor(),
      dotPosition: { x: 0.5, y: 0.5 },
      deviceWidth: 1280,
      comment: "Hook me",
    });
    await until(at, async () => attempts.length >= 3, 60_000);
    const { retryBaseSeconds, timeoutMs } = t.ctx.config.webhooks;
    return {
      first: attempts[0]! - at,
      afterFailure: attempts[1]! - attempts[0]!,
      afterTimeout: attempts[2]! - attempts[1]!,
      scheduledAfterFailure: retryBaseSeconds * 1000,
      scheduledAfterTimeout: timeoutMs + retryBaseSeconds * 2000,
    };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

const t = await startTestApp({ driver: "postgres" });
try {
  t.ctx.config.plansEnabled = false;
  const owner = await person(t, "Olivia Owner");
  const cardRows = await cards(t, owner);
  const slackRow = await slack(t, owner);
  const hook = await webhooks(t, owner);
  const worst = Math.max(...cardRows.map((row) => row.automatic.p95), slackRow.posted.p95);
  const measured = `Measured ${new Date().toISOString().slice(0, 10)} at load ${loadavg()[0]!.toFixed(1)} (2 cores).`;
  const body = `\`npm run bench:integrations\` — ${ROUNDS} rounds each, ${PACE_MS} ms apart; the app in one process on
PostgreSQL (loopback) with its embedded stand-ins, as \`npm start\` serves them; times from the first request's
start, read every 10 ms. ${measured}

| Event → card made in the tracker | Baseline: ticket + a person's "Create card", p50 | p95 | Automatic rule (ledger → job), p50 | p95 | p95 ÷ baseline |
| --- | --- | --- | --- | --- | --- |
${cardRows
  .map(
    ({ tracker, baseline, automatic }) =>
      `| ${tracker} | ${ms(baseline.p50)} | ${ms(baseline.p95)} | ${ms(automatic.p50)} | ${ms(automatic.p95)} | ${(automatic.p95 / baseline.p95).toFixed(2)}× |`,
  )
  .join("\n")}

| Comment → message in the Slack channel | p50 | p95 | p95 ÷ baseline |
| --- | --- | --- | --- |
| The comment's own POST (baseline) | ${ms(slackRow.request.p50)} | ${ms(slackRow.request.p95)} | 1.00× |
| Message posted to the channel | ${ms(slackRow.posted.p50)} | ${ms(slackRow.posted.p95)} | ${(slackRow.posted.p95 / slackRow.request.p95).toFixed(2)}× |

Goal: event → card / message p95 < 2 s — ${worst < 2000 ? "met" : "not met"} (worst p95 ${ms(worst)}).

| Webhook delivery under a receiver that fails, hangs, comes back | Measured | Scheduled | Measured ÷ scheduled |
| --- | --- | --- | --- |
| Comment → first attempt | ${ms(hook.first)} | — | — |
| First attempt (500) → second | ${ms(hook.afterFailure)} | ${ms(hook.scheduledAfterFailure)} (first retry's wait) | ${(hook.afterFailure / hook.scheduledAfterFailure).toFixed(2)}× |
| Second attempt (no answer) → third (204) | ${ms(hook.afterTimeout)} | ${ms(hook.scheduledAfterTimeout)} (timeout + doubled wait) | ${(hook.afterTimeout / hook.scheduledAfterTimeout).toFixed(2)}× |

The bench runs with the test configuration's schedule (first retry after ${t.ctx.config.webhooks.retryBaseSeconds} s, timeout ${t.ctx.config.webhooks.timeoutMs} ms; production: 5 s and
10 s); the schedule is held when no attempt comes before its time (≥ 1.00×) and the queue adds little after it.`;
  console.log(body);
  if (!process.env.BENCH_NO_WRITE)
    await writeSection("Integrations: event → card, message and webhook retries (#30)", body);
} finally {
  await t.close();
}
