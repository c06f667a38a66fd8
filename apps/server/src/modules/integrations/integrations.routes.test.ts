import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { projectIntegrations, webhookDeliveries } from "../../db/schema/index.ts";
import { webhookHeaders } from "../../integrations/webhooks/index.ts";
import { testAnchor } from "../../testing/anchors.ts";
import { expectRefused, type Person, signUpPerson } from "../../testing/people.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers } from "../../testing/test-db.ts";

type Behaviour = "ok" | "fail" | "hang";

/**
 * A receiver as a customer would write it: it verifies each request with the Standard Webhooks library
 * (a forged one is answered 401 and not kept), and behaves as told, one behaviour per request in turn.
 */
class Receiver {
  server!: Server;
  secret = "";
  /** Verified messages, in arrival order. */
  received: { id: string; headers: IncomingHttpHeaders; body: any; at: number }[] = [];
  forged = 0;
  plan: Behaviour[] = [];

  async start() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        try {
          new Webhook(this.secret).verify(body, request.headers as Record<string, string>);
        } catch (error) {
          expect(error).toBeInstanceOf(WebhookVerificationError);
          this.forged += 1;
          response.writeHead(401).end();
          return;
        }
        const behaviour = this.plan.shift() ?? "ok";
        if (behaviour === "hang") return; // never answers: the sender's timeout decides
        this.received.push({
          id: String(request.headers["webhook-id"]),
          headers: request.headers,
          body: JSON.parse(body),
          at: Date.now(),
        });
        response.writeHead(behaviour === "ok" ? 204 : 500).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return this;
  }
  get url() {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }
  async close() {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const anchor = testAnchor();
const comment = (text: string) => ({
  anchor,
  dotPosition: { x: 0.25, y: 0.5 },
  deviceWidth: 1280,
  comment: text,
});

describe.each(drivers())("integrations: the Zapier/Webhook integration (%s)", (driver) => {
  let t: TestApp;
  let owner: Person;
  let editor: Person;
  let commenter: Person;
  let stranger: Person;
  let projectId: string;
  let pageId: string;
  let versionId: string;
  let receiver: Receiver;
  const base = () => `/api/projects/${projectId}/integrations`;

  const deliveries = async () =>
    (await owner.client.get(`${base()}/webhook/deliveries`)).body.data as {
      id: string;
      event: string;
      status: string;
      attempts: number;
      responseStatus: number | null;
    }[];

  beforeAll(async () => {
    t = await startTestApp({ driver });
    [owner, editor, commenter, stranger] = await Promise.all([
      signUpPerson(t, "owner", "Olivia Owner"),
      signUpPerson(t, "editor"),
      signUpPerson(t, "commenter", "Carl Commenter"),
      signUpPerson(t, "stranger"),
    ]);
    projectId = (await owner.client.post("/api/projects", { title: "Hooks" })).body.data.id;
    for (const [person, access] of [
      [editor, "edit"],
      [commenter, "comment"],
    ] as const)
      await owner.client.post(`/api/projects/${projectId}/members`, { email: person.address, access });
    ({ pageId, versionId } = (
      await owner.client.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/p" })
    ).body.data);
    receiver = await new Receiver().start();
  });
  afterEach(() => {
    t.ctx.config.plansEnabled = false;
  });
  afterAll(async () => {
    await receiver?.close();
    await t.close();
  });

  it("connects a webhook for the project's editors, with a signing secret shown once", async () => {
    expect((await owner.client.get(base())).body.data).toEqual({
      available: ["webhook", "slack", "trello", "clickup", "github", "asana", "jira"],
      integrations: [],
    });
    const connected = await editor.client.put(`${base()}/webhook`, {
      url: receiver.url,
      events: ["comment.created", "comment.replied", "comment.created"],
    });
    expect(connected.status).toBe(201);
    expect(connected.body.message).toBe("Zapier/Webhook connected successfully.");
    expect(connected.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    receiver.secret = connected.body.secret;
    expect(connected.body.data).toMatchObject({
      type: "webhook",
      isEnabled: true,
      webhook: { url: receiver.url, events: ["comment.created", "comment.replied"] },
    });

    const updated = await owner.client.put(`${base()}/webhook`, {
      url: receiver.url,
      events: ["comment.created", "comment.replied", "comment.resolved", "ticket.moved"],
    });
    expect(updated.status).toBe(200);
    expect(updated.body.message).toBe("Zapier/Webhook configuration updated successfully.");
    expect(updated.body.secret).toBeUndefined();
    const listed = (await owner.client.get(base())).body.data.integrations;
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain("whsec_");
  });

  it("keeps the secret sealed at rest", async () => {
    const [row] = await t.ctx.database.db
      .select()
      .from(projectIntegrations)
      .where(eq(projectIntegrations.projectId, projectId));
    expect(row!.secrets).toMatch(/^v1\./);
    expect(row!.secrets).not.toContain(receiver.secret.slice(6));
  });

  it("refuses bad input and other people, changing nothing", async () => {
    const put = (person: Person, body: unknown) => person.client.put(`${base()}/webhook`, body);
    await expectRefused(t, () => put(owner, { url: "ftp://example.com", events: ["comment.created"] }), 400);
    await expectRefused(t, () => put(owner, { url: receiver.url, events: [] }), 400);
    await expectRefused(t, () => put(owner, { url: receiver.url, events: ["comment.deleted"] }), 400);
    await expectRefused(t, () => put(owner, { url: receiver.url, events: ["page.added"], x: 1 }), 400);
    await expectRefused(t, () => put(commenter, { url: receiver.url, events: ["page.added"] }), 403);
    await expectRefused(t, () => commenter.client.get(base()), 403);
    await expectRefused(t, () => put(stranger, { url: receiver.url, events: ["page.added"] }), 404);
    await expectRefused(t, () => owner.client.delete(`${base()}/basecamp`), 400);
  });

  it("refuses private addresses where they are not allowed", async () => {
    t.ctx.config.allowPrivateUrls = false;
    try {
      for (const url of ["http://127.0.0.1:9/x", "http://10.0.0.7/x", "http://localhost/x", "http://[::1]/x"])
        await expectRefused(
          t,
          () => owner.client.put(`${base()}/webhook`, { url, events: ["comment.created"] }),
          400,
          "blocked-url",
        );
    } finally {
      t.ctx.config.allowPrivateUrls = true;
    }
  });

  it("offers a free owner the upgrade", async () => {
    t.ctx.config.plansEnabled = true;
    const answer = await expectRefused(t, () => owner.client.get(base()), 402, "integrations");
    expect(answer.body.limit).toMatchObject({ kind: "feature", limit: 0 });
    await expectRefused(
      t,
      () => owner.client.put(`${base()}/webhook`, { url: receiver.url, events: ["page.added"] }),
      402,
    );
  });

  it("delivers a comment, signed, and holds the retry schedule while the receiver fails, times out and comes back", async () => {
    receiver.plan = ["fail", "hang", "ok"];
    const started = Date.now();
    const posted = await commenter.client.post(`/api/versions/${versionId}/comments`, comment("Hello hooks"));
    expect(posted.status).toBe(201);
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(2);
    const [failed, delivered] = receiver.received;
    // The same message each time: one webhook-id, so a receiver can tell a retry from a new event.
    expect(delivered!.id).toBe(failed!.id);
    expect(delivered!.body).toMatchObject({
      type: "comment.created",
      data: {
        projectId,
        pageId,
        versionId,
        text: "Hello hooks",
        actor: { name: "Carl Commenter", isGuest: false },
        url: `${t.url}/project/${projectId}/${pageId}`,
      },
    });
    // 1 s after the failure, 2 s after the timeout (1.5 s): the third attempt ≥ 4.5 s after the first.
    expect(delivered!.at - failed!.at).toBeGreaterThanOrEqual(4000);
    expect(Date.now() - started).toBeLessThan(20_000);
    await expect
      .poll(async () => (await deliveries())[0])
      .toMatchObject({ event: "comment.created", status: "succeeded", attempts: 3, responseStatus: 204 });
  });

  it("makes one delivery per event and endpoint, however often the ledger is read", async () => {
    await t.settled();
    const before = await t.ctx.database.db.select().from(webhookDeliveries);
    // Reading the same events again (a consumer restarted before its cursor moved) makes nothing new.
    const { handleWebhookEvent } = await import("./webhooks.consumer.ts");
    const row = before[0]!;
    await t.ctx.database.db.transaction((tx) =>
      handleWebhookEvent(t.ctx, tx, {
        id: row.eventId,
        tx: "0",
        createdAt: new Date(),
        event: {
          type: "comment.created",
          actor: {},
          ref: { id: "c", projectId, pageId, versionId },
          text: "again",
        },
      }),
    );
    expect(await t.ctx.database.db.select().from(webhookDeliveries)).toHaveLength(before.length);
  });

  it("replays a delivery with the same id, and tells only the chosen events", async () => {
    const [last] = await deliveries();
    const count = receiver.received.length;
    const replayed = await owner.client.post(`${base()}/webhook/deliveries/${last!.id}/replay`);
    expect(replayed.status).toBe(200);
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(count + 1);
    expect(receiver.received.at(-1)!.id).toBe(receiver.received.at(-2)!.id);
    await expectRefused(
      t,
      () => owner.client.post(`${base()}/webhook/deliveries/${"x".repeat(22)}/replay`),
      404,
    );
    await expectRefused(
      t,
      () => commenter.client.post(`${base()}/webhook/deliveries/${last!.id}/replay`),
      403,
    );

    // page.added is not chosen: no delivery.
    await owner.client.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/q" });
    await t.settled();
    expect((await deliveries()).map((delivery) => delivery.event)).not.toContain("page.added");
  });

  it("signs with the old secret beside the new one for a day after a rotation", async () => {
    const old = receiver.secret;
    const rotated = await owner.client.post(`${base()}/webhook/secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(old);
    expect(rotated.body.data.webhook.previousSecretExpiresAt).toEqual(expect.any(String));
    const count = receiver.received.length;
    // The receiver still holds the old secret: it verifies.
    await commenter.client.post(`/api/versions/${versionId}/comments`, comment("After rotation"));
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(count + 1);
    const signatures = String(receiver.received.at(-1)!.headers["webhook-signature"]).split(" ");
    expect(signatures).toHaveLength(2);
    // …and with the new one.
    receiver.secret = rotated.body.secret;
    await commenter.client.post(`/api/versions/${versionId}/comments`, comment("New secret"));
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(count + 2);
  });

  it("has a receiver refuse a forged signature", async () => {
    const body = JSON.stringify({ type: "comment.created", data: {} });
    const forged = webhookHeaders(
      [`whsec_${Buffer.from("not the secret").toString("base64")}`],
      "msg_1",
      body,
    );
    const forgedBefore = receiver.forged;
    const response = await fetch(receiver.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...forged },
      body,
    });
    expect(response.status).toBe(401);
    expect(receiver.forged).toBe(forgedBefore + 1);
    // A stale timestamp (replayed capture) with the right secret is refused too.
    const stale = webhookHeaders([receiver.secret], "msg_2", body, new Date(Date.now() - 60 * 60 * 1000));
    expect((await fetch(receiver.url, { method: "POST", headers: stale, body })).status).toBe(401);
  });

  it("subscribes and unsubscribes Zapier REST hooks with an API token", async () => {
    const token = (await editor.client.post("/api/me/tokens", { name: "Zapier", scope: "read-write" })).body
      .data.secret as string;
    const zapier = (method: string, path: string, body?: unknown) =>
      fetch(`${t.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { "content-type": "application/json" } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    const hook = await new Receiver().start();
    hook.secret = receiver.secret;
    try {
      const subscribed = await zapier("POST", `${base()}/webhook/subscriptions`, {
        target_url: hook.url,
        event: "comment.resolved",
      });
      expect(subscribed.status).toBe(201);
      expect(subscribed.body.data).toMatchObject({
        url: hook.url,
        events: ["comment.resolved"],
        source: "zapier",
      });
      const { id: commentId } = (
        await owner.client.post(`/api/versions/${versionId}/comments`, comment("Resolve me"))
      ).body.data;
      await owner.client.patch(`/api/comments/${commentId}`, { isResolved: true });
      await expect.poll(() => hook.received.length, { timeout: 10_000 }).toBe(1);
      expect(hook.received[0]!.body).toMatchObject({ type: "comment.resolved", data: { commentId } });

      const gone = await zapier("DELETE", `${base()}/webhook/subscriptions/${subscribed.body.data.id}`);
      expect(gone.status).toBe(200);
      expect(
        (await zapier("DELETE", `${base()}/webhook/subscriptions/${subscribed.body.data.id}`)).status,
      ).toBe(404);
    } finally {
      await hook.close();
    }
  });

  it("disables, enables and disconnects at once", async () => {
    const off = await owner.client.patch(`${base()}/webhook`, { isEnabled: false });
    expect(off.status).toBe(200);
    expect(off.body.data.isEnabled).toBe(false);
    const count = receiver.received.length;
    await commenter.client.post(`/api/versions/${versionId}/comments`, comment("While disabled"));
    await t.settled();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.received.length).toBe(count);
    expect((await owner.client.patch(`${base()}/webhook`, { isEnabled: true })).body.data.isEnabled).toBe(
      true,
    );

    const disconnected = await owner.client.delete(`${base()}/webhook`);
    expect(disconnected.status).toBe(200);
    expect(disconnected.body.message).toBe("Zapier disconnected successfully.");
    expect((await owner.client.get(base())).body.data.integrations).toEqual([]);
    expect(
      await t.ctx.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.projectId, projectId)),
    ).toEqual([]);
    await expectRefused(t, () => owner.client.delete(`${base()}/webhook`), 404);
  });
});
