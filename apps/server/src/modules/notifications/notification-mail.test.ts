import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifications } from "../../db/schema/index.ts";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { mailNotification } from "./notification-mail.ts";

let t: TestApp;
let owner: ApiClient;
let member: ApiClient;
const stamp = Date.now().toString(36);
const ownerEmail = `mail-owner-${stamp}@example.com`;
const memberEmail = `mail-member-${stamp}@example.com`;
let versionId: string;
let ownerUid: string;

beforeAll(async () => {
  t = await startTestApp();
  owner = await signUpVerified(t.url, t.inbox!, ownerEmail, undefined, "Olivia Owner");
  member = await signUpVerified(t.url, t.inbox!, memberEmail, undefined, "Mo Member");
  ownerUid = (await owner.get("/api/me")).body.data.uid;
  const projectId = (await owner.post("/api/projects", { title: "Launch" })).body.data.id as string;
  const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#e5383b" } })
    .png()
    .toBuffer();
  const page = await owner.upload(`/api/projects/${projectId}/uploads`, {
    name: "Homepage.png",
    type: "image/png",
    bytes,
  });
  versionId = page.body.data.versionId;
  await owner.post(`/api/projects/${projectId}/members`, { email: memberEmail, access: "comment" });
});
afterAll(() => t?.close());

const comment = (text: string) => ({ dotPosition: { x: 0.5, y: 0.5 }, deviceWidth: 1280, comment: text });
const mailsTo = (address: string, text: string) =>
  t.inbox!.mails.filter((mail) => mail.to.includes(address) && mail.subject.includes(text));

describe("notifications by e-mail", () => {
  it("mails a mention with a link to the comment, out of the request", async () => {
    const made = await member.post(`/api/versions/${versionId}/comments`, comment(`Ready? {@${ownerUid}}`));
    expect(made.status).toBe(201);
    const mail = await t.inbox!.waitFor(
      (m) => m.to.includes(ownerEmail) && m.subject === "Mo Member mentioned you in a comment on “Homepage”",
    );
    expect(mail.text).toContain("in Launch.");
    expect(mail.link).toContain(`/comment?id=${made.body.data.id}`);
    const [row] = await t.ctx.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.commentId, made.body.data.id));
    expect(row!.emailSent).toBe(true);
    // Mailed once: a second attempt (another process, a retry) finds it claimed.
    expect(await mailNotification(t.ctx, row!.id)).toBe("skipped");
  });

  it("follows the recipient's e-mail preferences, kind by kind", async () => {
    expect((await owner.patch("/api/me", { emailPreferences: { mentions: false } })).status).toBe(200);
    const quiet = await member.post(`/api/versions/${versionId}/comments`, comment(`Again {@${ownerUid}}`));
    await expect
      .poll(
        async () => {
          const [row] = await t.ctx.database.db
            .select({ emailSent: notifications.emailSent })
            .from(notifications)
            .where(eq(notifications.commentId, quiet.body.data.id));
          return row?.emailSent;
        },
        { timeout: 15_000 },
      ) // the queue's workers poll every 2 s
      .toBe(true);
    // Comments are still on: a plain comment is mailed, the muted mention never was.
    await member.post(`/api/versions/${versionId}/comments`, comment("Plain words"));
    await t.inbox!.waitFor(
      (m) => m.to.includes(ownerEmail) && m.subject.startsWith("Mo Member commented on page"),
    );
    expect(mailsTo(ownerEmail, "mentioned you")).toHaveLength(1);
  });
});
