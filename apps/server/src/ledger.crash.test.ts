/**
 * kill -9 between an operation's commit and its consumers' work (issue #28): a comment is acknowledged by
 * a process that leaves the ledger's consumers to others, which is then killed before anyone read the
 * event. The next process to run the consumers makes the notification, its mail and its realtime event —
 * each exactly once, and never again after another kill and restart.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { RealtimeServerMessage } from "@redline/shared";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { PASSWORD, projectWithScreenshot, signUpThroughOutbox } from "./testing/crash-round.ts";
import { ApiClient } from "./testing/http-client.ts";
import { type ServerProcess, startServerProcess } from "./testing/server-process.ts";
import { createTestDatabase, drivers, type TestDriver } from "./testing/test-db.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

interface Mail {
  to: string;
  subject: string;
  text: string;
}

async function setUp(driver: TestDriver) {
  const database = await createTestDatabase(driver);
  cleanups.push(() => database.release());
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "redline-ledger-crash-"));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const start = async (consumers: boolean) => {
    const server = await startServerProcess({
      dataDir,
      databaseUrl: database.databaseUrl,
      env: {
        RATE_LIMIT_ENABLED: "false",
        LEDGER_CONSUMERS: String(consumers),
        MAIL_BATCH_WINDOW_MS: "200",
      },
    });
    cleanups.push(() => server.stop());
    return server;
  };
  return { start };
}

async function signIn(server: ServerProcess, email: string): Promise<ApiClient> {
  const client = new ApiClient(server.url);
  const response = await client.post("/api/auth/sign-in/email", { email, password: PASSWORD });
  expect(response.status).toBe(200);
  return client;
}

async function notificationMails(client: ApiClient, to: string, text: string): Promise<Mail[]> {
  const mailbox = await client.get<{ data: Mail[] }>("/api/dev/mailbox");
  return mailbox.body.data.filter((mail) => mail.to.includes(to) && mail.text.includes(text));
}

async function commentNotifications(client: ApiClient, commentId: string) {
  const list = await client.get<{ data: { type: string; commentId: string | null }[] }>("/api/notifications");
  return list.body.data.filter((notification) => notification.commentId === commentId);
}

async function openUserSocket(server: ServerProcess, client: ApiClient) {
  const socket = new WebSocket(`${server.url.replace("http", "ws")}/api/realtime`, {
    headers: { origin: server.url, cookie: client.cookieHeader() },
  });
  cleanups.push(async () => socket.close());
  const received: RealtimeServerMessage[] = [];
  socket.on("message", (data) => received.push(JSON.parse(data.toString())));
  await expect
    .poll(() => received.some((message) => message.type === "ready"), { timeout: 10_000 })
    .toBe(true);
  return received;
}

/** The owner's project with a member who comments on its one screenshot; returns what the owner is told of. */
async function commentAndKill(writer: ServerProcess) {
  const stamp = Date.now();
  const ownerEmail = `ledger-owner-${stamp}@example.com`;
  const memberEmail = `ledger-member-${stamp}@example.com`;
  const owner = await signUpThroughOutbox(writer.url, ownerEmail);
  const member = await signUpThroughOutbox(writer.url, memberEmail);
  const { versionId } = await projectWithScreenshot(owner, {
    title: "Crash between commit and delivery",
    memberEmail,
    n: stamp % 0xffffff,
  });
  const text = `Acknowledged just before the crash ${stamp}`;
  const comment = await member.post(`/api/versions/${versionId}/comments`, {
    dotPosition: { x: 0.5, y: 0.5 },
    deviceWidth: 1280,
    comment: text,
  });
  expect(comment.status).toBe(201);
  // The write is acknowledged; no process has read its event (this one leaves the consumers to others).
  await writer.kill9();
  return { ownerEmail, commentId: comment.body.data.id as string, text };
}

describe.each(drivers())("kill -9 between commit and delivery (%s)", (driver) => {
  it("delivers the notification, its mail and its realtime event exactly once after the restart", async () => {
    const { start } = await setUp(driver);
    const { ownerEmail, commentId } = await commentAndKill(await start(false));

    // PostgreSQL: another process, already serving the owner's tab, leaves the consumers to others too.
    const tabServer = driver === "postgres" ? await start(false) : null;
    const tab = tabServer ? await openUserSocket(tabServer, await signIn(tabServer, ownerEmail)) : null;
    const told = () =>
      (tab ?? []).filter(
        (message) =>
          message.type === "event" &&
          message.event.type === "notifications.created" &&
          message.event.notification?.commentId === commentId,
      ).length;

    let consumer = await start(true);
    let owner = await signIn(consumer, ownerEmail);
    await expect
      .poll(async () => (await commentNotifications(owner, commentId)).length, { timeout: 15_000 })
      .toBe(1);
    await expect
      .poll(async () => (await notificationMails(owner, ownerEmail, commentId)).length, { timeout: 15_000 })
      .toBe(1);
    if (tab) await expect.poll(told, { timeout: 10_000 }).toBe(1);

    // Killed again after delivering, and started anew: nothing is delivered a second time.
    await consumer.kill9();
    consumer = await start(true);
    owner = await signIn(consumer, ownerEmail);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await commentNotifications(owner, commentId)).toEqual([
      // A comment on an uploaded screenshot: SPEC §3's false-comment (a web page's would be web-comment).
      expect.objectContaining({ type: "false-comment" }),
    ]);
    expect(await notificationMails(owner, ownerEmail, commentId)).toHaveLength(1);
    if (tab) expect(told()).toBe(1);
  }, 240_000);
});
