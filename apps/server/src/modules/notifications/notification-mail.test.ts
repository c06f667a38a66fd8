import { and, eq, inArray, type SQL } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifications, projectMembers, users } from "../../db/schema/index.ts";
import { mintUnsubscribeToken, UNSUBSCRIBE_TTL_MS } from "../../lib/mail/unsubscribe-token.ts";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import type { ReceivedMail } from "../../testing/smtp-inbox.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { createTicket } from "../tickets/tickets.service.ts";
import { mailBatch, NOTIFICATION_MAIL_QUEUE } from "./notification-mail.ts";

/** Small, so the test is quick; long enough that a burst of 20 comments fits in it on a busy machine. */
const WINDOW_MS = 8000;

let t: TestApp;
let owner: ApiClient;
let member: ApiClient;
let reviewer: ApiClient;
const stamp = Date.now().toString(36);
const ownerEmail = `mail-owner-${stamp}@example.com`;
const memberEmail = `mail-member-${stamp}@example.com`;
const reviewerEmail = `mail-reviewer-${stamp}@example.com`;
let projectId: string;
let versionId: string;
let pageId: string;
let ownerUid: string;

beforeAll(async () => {
  t = await startTestApp({ config: { mailBatchWindowMs: WINDOW_MS } });
  owner = await signUpVerified(t.url, t.inbox!, ownerEmail, undefined, "Olivia Owner");
  member = await signUpVerified(t.url, t.inbox!, memberEmail, undefined, "Mo Member");
  reviewer = await signUpVerified(t.url, t.inbox!, reviewerEmail, undefined, "Rae Reviewer");
  ownerUid = (await owner.get("/api/me")).body.data.uid;
  projectId = (await owner.post("/api/projects", { title: "Launch" })).body.data.id as string;
  const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#e5383b" } })
    .png()
    .toBuffer();
  const page = await owner.upload(`/api/projects/${projectId}/uploads`, {
    name: "Homepage.png",
    type: "image/png",
    bytes,
  });
  versionId = page.body.data.versionId;
  pageId = page.body.data.pageId;
  await owner.post(`/api/projects/${projectId}/members`, { email: memberEmail, access: "comment" });
  await owner.post(`/api/projects/${projectId}/members`, { email: reviewerEmail, access: "comment" });
}, 180_000);
afterAll(() => t?.close());

const comment = (text: string) => ({ dotPosition: { x: 0.5, y: 0.5 }, deviceWidth: 1280, comment: text });
const notificationMails = (address: string) =>
  t.inbox!.mails.filter((mail) => mail.to.includes(address) && mail.headers["list-unsubscribe"]);
const userIdOf = async (email: string) =>
  (await t.ctx.database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;

/**
 * Once every notification the test's writes set going has asked for its batch (the ledger settled), the
 * waiting batches start now instead of at the end of their window: what they would mail is all there, so the
 * mails are the same; the test does not wait out a window each time. The first test waits it out, so the
 * batches are known to start by themselves.
 */
async function release() {
  await t.settled();
  await t.ctx.database.executeSql(
    "update pgboss.job set start_after = now() where name = $1 and state = 'created'",
    [NOTIFICATION_MAIL_QUEUE],
  );
}

/**
 * Until no batch is due or running and the outbox holds no undelivered mail: every mail a batch made is in
 * the inbox (the outbox's row is stored before its batch ends, and marked sent once the inbox took it).
 */
async function delivered() {
  await expect
    .poll(
      async () => {
        const { rows } = await t.ctx.database.executeSql(
          `select (select count(*) from pgboss.job where name = $1
                    and (state in ('active', 'retry') or (state = 'created' and start_after <= now())))::int
                + (select count(*) from outgoing_mails where sent_at is null)::int as pending`,
          [NOTIFICATION_MAIL_QUEUE],
        );
        return (rows[0] as { pending: number }).pending;
      },
      { timeout: 20_000, interval: 100 },
    )
    .toBe(0);
}

/** Until every notification of these comments is handed to the mailer (claimed) and its mail delivered. */
const settled = (commentIds: string[], options?: { wait?: boolean }) =>
  settledWhere(inArray(notifications.commentId, commentIds), options);

/** Until every notification `where` picks is handed to the mailer (claimed) and its mail delivered. */
async function settledWhere(where: SQL | undefined, { wait = false } = {}) {
  if (!wait) await release();
  await expect
    .poll(
      async () => {
        const rows = await t.ctx.database.db
          .select({ emailSent: notifications.emailSent })
          .from(notifications)
          .where(where);
        return rows.length > 0 && rows.every((row) => row.emailSent);
      },
      { timeout: 20_000, interval: 100 },
    )
    .toBe(true);
  await delivered();
}

describe("notifications by e-mail, batched", () => {
  let burst: string[] = [];
  let ownerMail: ReceivedMail;

  it("a burst of 20 comments sends each recipient exactly one mail whose link opens a comment of it", async () => {
    const before = {
      owner: notificationMails(ownerEmail).length,
      reviewer: notificationMails(reviewerEmail).length,
    };
    burst = [];
    const started = Date.now();
    // All at once, as a burst: on a loaded machine 20 requests one after another may outlast the window.
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        member.post(`/api/versions/${versionId}/comments`, comment(`Point ${index + 1}`)),
      ),
    );
    for (const answer of made) expect(answer.status).toBe(201);
    burst = made.map((answer) => answer.body.data.id as string);
    expect(Date.now() - started, "the burst fits in the window").toBeLessThan(WINDOW_MS);
    // One waiting job per (recipient, project, preference), however many events came.
    await t.settled();
    const ownerKey = `${await userIdOf(ownerEmail)}:${projectId}:comments`;
    const { rows } = await t.ctx.database.executeSql(
      "select count(*)::int as count from pgboss.job where name = $1 and singleton_key = $2",
      [NOTIFICATION_MAIL_QUEUE, ownerKey],
    );
    expect((rows[0] as { count: number }).count).toBe(1);
    await settled(burst, { wait: true });

    for (const [address, count] of [
      [ownerEmail, before.owner],
      [reviewerEmail, before.reviewer],
    ] as const) {
      const mails = notificationMails(address).slice(count);
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      expect(mail!.subject).toMatch(
        /^(Mo Member left 20 comments on page “Homepage”|20 new notifications in “Launch”)/,
      );
      const opened = new URL(mail!.link!);
      expect(opened.origin).toBe(t.url);
      expect(opened.pathname).toBe(
        `/project/${projectId}/${opened.pathname.split("/")[3]}/${versionId}/comment`,
      );
      expect(burst).toContain(opened.searchParams.get("id"));
      expect(mail!.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
      if (address === ownerEmail) ownerMail = mail!;
    }
    // The link's comment is there for its reader.
    const listed = await owner.get(`/api/versions/${versionId}/comments`);
    const linked = new URL(ownerMail.link!).searchParams.get("id");
    expect(JSON.stringify(listed.body)).toContain(linked);
  }, 60_000);

  it("keeps one preference per message: a mention in the same window is its own mail", async () => {
    const before = notificationMails(ownerEmail).length;
    const plain = await member.post(`/api/versions/${versionId}/comments`, comment("Plain words"));
    const mention = await member.post(
      `/api/versions/${versionId}/comments`,
      comment(`Ready? {@${ownerUid}}`),
    );
    await settled([plain.body.data.id, mention.body.data.id]);
    const mails = notificationMails(ownerEmail).slice(before);
    expect(mails).toHaveLength(2);
    expect(mails.map((mail) => mail.subject)).toContain("Mo Member mentioned you in a comment on “Homepage”");
    expect(mails.map((mail) => mail.subject)).toContainEqual(
      expect.stringMatching(/^Mo Member (left \d+ comments|commented) on page “Homepage”$/),
    );
    const mentionMail = mails.find((mail) => mail.subject.includes("mentioned"))!;
    expect(mentionMail.link).toContain(`/comment?id=${mention.body.data.id}`);
    expect(mentionMail.text).toContain("Stop e-mails about mentions:");
    // Mailed once: another batch of the same key (a retry, another process) finds nothing left.
    expect(
      await mailBatch(t.ctx, { userId: await userIdOf(ownerEmail), projectId, preference: "mentions" }),
    ).toBe("skipped");
  }, 60_000);

  it("sends nothing to a recipient whose preference is off", async () => {
    expect((await reviewer.patch("/api/me", { emailPreferences: { comments: false } })).status).toBe(200);
    const before = notificationMails(reviewerEmail).length;
    const made = await member.post(`/api/versions/${versionId}/comments`, comment("Anyone?"));
    await settled([made.body.data.id]);
    expect(notificationMails(reviewerEmail).slice(before)).toHaveLength(0);
  }, 60_000);

  it("ten approve/unapprove changes by one person: one mail with one line, telling where they ended", async () => {
    const before = notificationMails(memberEmail).length;
    const started = Date.now();
    for (let i = 0; i < 10; i++) {
      const changed = await owner.put(`/api/pages/${pageId}/approval`, { approved: i % 2 === 0 });
      expect(changed.status).toBe(200);
    }
    expect(Date.now() - started, "the changes fit in the window").toBeLessThan(WINDOW_MS);
    const memberId = await userIdOf(memberEmail);
    await settledWhere(
      and(
        eq(notifications.userId, memberId),
        eq(notifications.pageId, pageId),
        inArray(notifications.type, ["page-approved", "page-unapproved"]),
      ),
    );
    const mails = notificationMails(memberEmail).slice(before);
    expect(mails.map((mail) => mail.subject)).toEqual(["Olivia Owner unapproved page “Homepage”"]);
    expect(mails[0]!.text.match(/approved page/g)).toHaveLength(1);
    expect(mails[0]!.text).toContain("Stop e-mails about pages unapproved:");
  }, 60_000);

  it("pages added in a burst: one mail per person listing each page's link, with no unsubscribe, whatever the preferences", async () => {
    // No preference covers an added page (ADR 0017): even with every flag off it is mailed.
    const off = Object.fromEntries(
      Object.keys((await reviewer.get("/api/me")).body.data.emailPreferences).map((key) => [key, false]),
    );
    expect((await reviewer.patch("/api/me", { emailPreferences: off })).status).toBe(200);
    const pagesMails = (address: string) =>
      t.inbox!.mails.filter((mail) => mail.to.includes(address) && mail.subject.includes("pages to project"));
    const before = { member: pagesMails(memberEmail).length, reviewer: pagesMails(reviewerEmail).length };
    const bytes = await sharp({ create: { width: 32, height: 24, channels: 3, background: "#2f5fb3" } })
      .png()
      .toBuffer();
    const added = await Promise.all(
      ["Pricing.png", "About.png", "Contact.png"].map((name) =>
        owner.upload(`/api/projects/${projectId}/uploads`, { name, type: "image/png", bytes }),
      ),
    );
    for (const answer of added) expect(answer.status).toBe(201);
    const versions = added.map((answer) => answer.body.data.versionId as string);
    const recipients = [await userIdOf(memberEmail), await userIdOf(reviewerEmail)];
    await release();
    await expect
      .poll(
        async () => {
          const rows = await t.ctx.database.db
            .select({ emailSent: notifications.emailSent, userId: notifications.userId })
            .from(notifications)
            .where(and(eq(notifications.type, "web-page-add"), inArray(notifications.versionId, versions)));
          return rows.filter((row) => recipients.includes(row.userId) && row.emailSent).length;
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBe(6);
    await delivered();

    for (const [address, count] of [
      [memberEmail, before.member],
      [reviewerEmail, before.reviewer],
    ] as const) {
      const mails = pagesMails(address).slice(count);
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      expect(mail!.subject).toBe("Olivia Owner added 3 pages to project “Launch”");
      expect(mail!.headers["list-unsubscribe"]).toBeUndefined();
      expect(mail!.headers["list-unsubscribe-post"]).toBeUndefined();
      for (const title of ["Pricing", "About", "Contact"]) expect(mail!.text).toContain(`“${title}`);
      // The first link opens one of the added pages (its first version).
      const opened = new URL(mail!.link!);
      expect(opened.origin).toBe(t.url);
      const [, , project, , version] = opened.pathname.split("/");
      expect(project).toBe(projectId);
      expect(versions).toContain(version);
    }
    // The owner added them: no mail to the actor.
    expect(pagesMails(ownerEmail)).toHaveLength(0);
  }, 60_000);

  describe("tickets created on a board", () => {
    let boardId: string;
    const ticketMails = (address: string) =>
      t.inbox!.mails.filter(
        (mail) => mail.to.includes(address) && /(a ticket|new tickets) on “Shop bugs”$/.test(mail.subject),
      );
    /** Until the recipients' notifications of these tickets are claimed, then a wait for anything on the wire. */
    async function ticketsSettled(ticketIds: string[], recipients: string[]) {
      await release();
      await expect
        .poll(
          async () => {
            const rows = await t.ctx.database.db
              .select({
                emailSent: notifications.emailSent,
                userId: notifications.userId,
                context: notifications.context,
              })
              .from(notifications)
              .where(eq(notifications.type, "browse-ticket-add"));
            return rows.filter(
              (row) =>
                recipients.includes(row.userId) &&
                ticketIds.includes(row.context.ticketId ?? "") &&
                row.emailSent,
            ).length;
          },
          { timeout: 20_000, interval: 100 },
        )
        .toBe(ticketIds.length * recipients.length);
      await delivered();
    }

    beforeAll(async () => {
      boardId = (await owner.post("/api/projects", { title: "Shop bugs", type: "browse" })).body.data.id;
      await owner.post(`/api/projects/${boardId}/members`, { email: memberEmail, access: "comment" });
      await owner.post(`/api/projects/${boardId}/members`, { email: reviewerEmail, access: "comment" });
    }, 60_000);

    it("a burst of tickets: one mail per person listing each ticket with the link that opens it, no unsubscribe, none to the reporter", async () => {
      const todo = (await owner.post(`/api/projects/${boardId}/lists`, { title: "To do" })).body.data.id;
      const titles = ["Coupon fails", "Logo blurry", "Menu overlaps"];
      const made = await Promise.all(
        titles.map((title) => owner.post(`/api/projects/${boardId}/tickets`, { listId: todo, title })),
      );
      for (const answer of made) expect(answer.status).toBe(201);
      const ids = made.map((answer) => answer.body.data.id as string);
      await ticketsSettled(ids, [await userIdOf(memberEmail), await userIdOf(reviewerEmail)]);

      for (const address of [memberEmail, reviewerEmail]) {
        const mails = ticketMails(address);
        expect(mails).toHaveLength(1);
        const [mail] = mails;
        expect(mail!.subject).toBe("3 new tickets on “Shop bugs”");
        expect(mail!.headers["list-unsubscribe"]).toBeUndefined();
        expect(mail!.headers["list-unsubscribe-post"]).toBeUndefined();
        // Each ticket by its title, with the board's deep link that opens it (`?t=`, SPEC §1 routes).
        for (const [index, title] of titles.entries())
          expect(mail!.text).toContain(
            `Olivia Owner: “${title}”: ${t.url}/project/${boardId}?t=${ids[index]}`,
          );
        const opened = new URL(mail!.link!);
        expect(opened.origin).toBe(t.url);
        expect(opened.pathname).toBe(`/project/${boardId}`);
        expect(ids).toContain(opened.searchParams.get("t"));
      }
      // The linked ticket is there for its reader.
      const linked = new URL(ticketMails(memberEmail)[0]!.link!).searchParams.get("t");
      const read = await member.get(`/api/tickets/${linked}`);
      expect(read.status).toBe(200);
      expect(titles).toContain(read.body.data.title);
      // The owner wrote them: no mail to the reporter.
      expect(ticketMails(ownerEmail)).toHaveLength(0);
    }, 60_000);

    it("a guest's report mails the owner too; a person out of the project by the time of the batch gets none", async () => {
      const before = { member: ticketMails(memberEmail).length, reviewer: ticketMails(reviewerEmail).length };
      const reported = await createTicket(t.ctx, {
        projectId: boardId,
        listId: null,
        title: "Cart empties itself",
        firstEntry: "Twice today.",
        reporter: { name: "Gail Guest", email: `gail-${stamp}@example.com` },
      });
      // Its notifications are made (the ledger settled) while all three are the project's people.
      await t.settled();
      // Within the window: the member is removed (their notifications of the project go with them), and
      // the reviewer's place ends by a way that leaves them (as leaving a project's team does).
      const entries = (await owner.get(`/api/projects/${boardId}/members`)).body.data as {
        id: string;
        email: string;
      }[];
      const memberEntry = entries.find((entry) => entry.email === memberEmail)!;
      expect((await owner.delete(`/api/projects/${boardId}/members/${memberEntry.id}`)).status).toBe(200);
      const reviewerId = await userIdOf(reviewerEmail);
      await t.ctx.database.db
        .delete(projectMembers)
        .where(and(eq(projectMembers.projectId, boardId), eq(projectMembers.userId, reviewerId)));
      await ticketsSettled([reported.id], [ownerUid, reviewerId]);

      const [mail, ...more] = ticketMails(ownerEmail);
      expect(more).toHaveLength(0);
      expect(mail!.subject).toBe("Gail Guest created a ticket on “Shop bugs”");
      expect(mail!.text).toContain("Gail Guest created a ticket on Shop bugs: “Cart empties itself”.");
      expect(mail!.link).toBe(`${t.url}/project/${boardId}?t=${reported.id}`);
      expect(mail!.headers["list-unsubscribe"]).toBeUndefined();
      expect(ticketMails(memberEmail).slice(before.member)).toHaveLength(0);
      expect(ticketMails(reviewerEmail).slice(before.reviewer)).toHaveLength(0);
    }, 60_000);
  });

  it("one-click unsubscribe (RFC 8058 POST, no session) turns that preference off; forged or expired links change nothing", async () => {
    ownerMail ??= notificationMails(ownerEmail).findLast((mail) => mail.text.includes("about new comments"))!;
    const oneClick = ownerMail.headers["list-unsubscribe"]!.replace(/^<|>$/g, "");
    const post = (url: string) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
    const token = new URL(oneClick).searchParams.get("token")!;
    const forged = new URL(oneClick);
    forged.searchParams.set("token", `${token.slice(0, -2)}xx`);
    expect((await post(forged.toString())).status).toBe(400);
    const expired = new URL(oneClick);
    expired.searchParams.set(
      "token",
      mintUnsubscribeToken(
        t.ctx.config.authSecret,
        await userIdOf(ownerEmail),
        "comments",
        Date.now() - UNSUBSCRIBE_TTL_MS - 1000,
      ),
    );
    expect((await post(expired.toString())).status).toBe(400);
    expect((await owner.get("/api/me")).body.data.emailPreferences).toMatchObject({
      comments: true,
      mentions: true,
    });

    expect((await post(oneClick)).status).toBe(200);
    // Written outside the owner's session: their cached session sees it once the user row is announced.
    await expect
      .poll(async () => (await owner.get("/api/me")).body.data.emailPreferences)
      .toMatchObject({ comments: false, mentions: true });
    // And it has an effect: the next comment mails nobody.
    const before = notificationMails(ownerEmail).length;
    const made = await member.post(`/api/versions/${versionId}/comments`, comment("Still there?"));
    await settled([made.body.data.id]);
    expect(notificationMails(ownerEmail).slice(before)).toHaveLength(0);
  }, 60_000);
});
