/**
 * All mail leaves through the durable outbox (issue #16): a slow mail server does not slow a request, a
 * failing one does not fail it, and the mail is delivered once the server answers again; mail stored but
 * never delivered (a crash mid-way) is delivered by the next start.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outgoingMails } from "../../db/schema/index.ts";
import { ApiClient } from "../../testing/http-client.ts";
import { signUpPerson, uniqueEmail } from "../../testing/people.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { defaultDriver } from "../../testing/test-db.ts";
import { newId } from "../ids.ts";
import { type DurableMailer, retryDelaySeconds } from "./durable-mailer.ts";

const PASSWORD = "correct horse battery";

describe("durable mail", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver: defaultDriver() });
  });
  afterAll(() => t.close());

  const signUp = async (email: string) => {
    const started = performance.now();
    const answer = await new ApiClient(t.url).post("/api/auth/sign-up/email", {
      email,
      password: PASSWORD,
      name: "Slow Mail",
    });
    return { status: answer.status, ms: performance.now() - started };
  };
  const stored = async (to: string) =>
    (await t.ctx.database.db.select().from(outgoingMails)).filter((row) => row.mail.to === to);

  it("answers a sign-up without waiting for a mail server that takes 12 s, and the mail still arrives", async () => {
    // A sign-up that waited for the mail server would take the server's 12 s at least; one that does not
    // is done well before, even on a loaded machine (password hashing alone takes seconds there).
    t.inbox!.behave({ delayMs: 12_000 });
    try {
      const email = uniqueEmail("slow-mail");
      const { status, ms } = await signUp(email);
      expect(status).toBe(200);
      expect(ms).toBeLessThan(8_000);
      const mail = await t.inbox!.waitFor((m) => m.to.includes(email), 30_000);
      expect(mail.link).toContain("verifyEmail");
      await expect
        .poll(async () => (await stored(email))[0]?.sentAt ?? null, { timeout: 10_000 })
        .not.toBeNull();
    } finally {
      t.inbox!.behave({});
    }
  }, 60_000);

  it("keeps a mail the server refused and delivers it when the server answers again", async () => {
    const owner = await signUpPerson(t, "mail-owner");
    const projectId = (await owner.client.post("/api/projects", { title: "Invited" })).body.data.id;
    t.inbox!.behave({ refuse: true });
    const invitee = uniqueEmail("mail-invitee");
    let row: Awaited<ReturnType<typeof stored>>[number] | undefined;
    try {
      const invited = await owner.client.post(`/api/projects/${projectId}/members`, {
        email: invitee,
        access: "comment",
      });
      expect(invited.status, JSON.stringify(invited.body)).toBe(201);
      await expect.poll(async () => (await stored(invitee))[0]?.lastError ?? null).not.toBeNull();
      row = (await stored(invitee))[0]!;
      expect(row).toMatchObject({ sentAt: null, attempts: 1, leaseUntil: null });
    } finally {
      t.inbox!.behave({});
    }
    // The queue tries again after its delay (5 s for a first failure).
    expect(retryDelaySeconds(1)).toBe(5);
    const mail = await t.inbox!.waitFor((m) => m.to.includes(invitee), 20_000);
    expect(mail.subject).toEqual(expect.any(String));
    await expect.poll(async () => (await stored(invitee))[0]?.sentAt ?? null).not.toBeNull();
    expect(t.inbox!.mails.filter((m) => m.to.includes(invitee))).toHaveLength(1);
  });

  it("sends a stored mail once, whoever asks first, and never one another delivery holds", async () => {
    const mailer = t.ctx.mailer as DurableMailer;
    const to = uniqueEmail("once");
    const id = newId();
    await t.ctx.database.db.insert(outgoingMails).values({ id, mail: { to, subject: "Once", text: "Once" } });
    const results = await Promise.all([mailer.deliver(id), mailer.deliver(id), mailer.deliver(id)]);
    expect(results.filter((result) => result === "sent")).toHaveLength(1);
    expect(results.filter((result) => result === "skipped")).toHaveLength(2);
    await t.inbox!.waitFor((m) => m.to.includes(to));
    expect(await mailer.deliver(id)).toBe("skipped");
    expect(t.inbox!.mails.filter((m) => m.to.includes(to))).toHaveLength(1);
    const [row] = await t.ctx.database.db.select().from(outgoingMails).where(eq(outgoingMails.id, id));
    expect(row).toMatchObject({ attempts: 1, leaseUntil: null });
    expect(row!.sentAt).not.toBeNull();
    // Delivered: its content is not kept.
    expect(row!.mail).toEqual({ to, subject: "Once", text: "" });
  });

  it("keeps attachments in the outbox and delivers them as files", async () => {
    const to = uniqueEmail("attached");
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await t.ctx.mailer.send({
      to,
      subject: "With a file",
      text: "See attached",
      attachments: [{ filename: "shot.png", contentType: "image/png", content: bytes.toString("base64") }],
    });
    const mail = await t.inbox!.waitFor((m) => m.to.includes(to));
    expect(mail.text).toContain("See attached");
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ filename: "shot.png", contentType: "image/png" });
    expect(mail.attachments[0]!.content.equals(bytes)).toBe(true);
    // Once delivered, the outbox keeps no copy of the file.
    await expect
      .poll(async () => (await stored(to))[0]?.mail)
      .toEqual({ to, subject: "With a file", text: "" });
  });

  it("delivers at start what was stored but never delivered", async () => {
    const to = uniqueEmail("after-crash");
    const id = newId();
    // As a process that crashed after storing: the row is there, its delivery never ran.
    await t.ctx.database.db
      .insert(outgoingMails)
      .values({ id, mail: { to, subject: "Stored", text: "Stored" } });
    await (t.ctx.mailer as DurableMailer).start(t.ctx.queue);
    await t.inbox!.waitFor((m) => m.to.includes(to));
  });
});
