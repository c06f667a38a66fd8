/**
 * One-click unsubscribe (RFC 8058, issue #16): a notification mail carries List-Unsubscribe and
 * List-Unsubscribe-Post; POSTing the link as a mail client does — no session, no Origin, form-encoded —
 * turns that one preference off; a forged or expired link is refused and changes nothing.
 */
import { UNSUBSCRIBE_MESSAGES } from "@redline/shared";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintUnsubscribeToken, UNSUBSCRIBE_TTL_MS } from "../../lib/mail/unsubscribe-token.ts";
import { expectRefused, type Person, signUpPerson } from "../../testing/people.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { defaultDriver } from "../../testing/test-db.ts";

describe("one-click unsubscribe", () => {
  let t: TestApp;
  let owner: Person;
  let member: Person;
  let versionId: string;

  /** POSTs as a mail client would: no cookie, no Origin, the RFC 8058 form body. */
  const oneClick = (url: string) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    }).then(async (response) => ({ status: response.status, body: await response.json() }));
  const preferences = async () => (await owner.client.get("/api/me")).body.data.emailPreferences;

  beforeAll(async () => {
    t = await startTestApp({ driver: defaultDriver() });
    owner = await signUpPerson(t, "unsub-owner", "Olivia Owner");
    member = await signUpPerson(t, "unsub-member", "Mo Member");
    const projectId = (await owner.client.post("/api/projects", { title: "Launch" })).body.data.id as string;
    const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#e5383b" } })
      .png()
      .toBuffer();
    versionId = (
      await owner.client.upload(`/api/projects/${projectId}/uploads`, {
        name: "Home.png",
        type: "image/png",
        bytes,
      })
    ).body.data.versionId;
    await owner.client.post(`/api/projects/${projectId}/members`, {
      email: member.address,
      access: "comment",
    });
  });
  afterAll(() => t.close());

  it("mails a notification with one-click unsubscribe that turns only its kind off, without a sign-in", async () => {
    await member.client.post(`/api/versions/${versionId}/comments`, {
      dotPosition: { x: 0.5, y: 0.5 },
      deviceWidth: 1280,
      comment: "Looks good",
    });
    const mail = await t.inbox!.waitFor(
      (m) => m.to.includes(owner.address) && m.subject.startsWith("Mo Member commented"),
      15_000,
    );
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    const oneClickUrl = mail.headers["list-unsubscribe"]!.replace(/^<|>$/g, "");
    expect(oneClickUrl).toMatch(new RegExp(`^${t.url}/api/mail/unsubscribe\\?token=`));
    expect(mail.text).toMatch(new RegExp(`Stop e-mails about new comments: ${t.url}/unsubscribe\\?token=`));

    const info = await fetch(oneClickUrl).then((response) => response.json());
    expect(info.data).toEqual({ preference: "comments", label: "New comments", isOn: true });
    const done = await oneClick(oneClickUrl);
    expect(done).toEqual({ status: 200, body: { message: UNSUBSCRIBE_MESSAGES.done("New comments") } });
    expect(await preferences()).toMatchObject({ comments: false, mentions: true, edits: true });
    // Twice is harmless.
    expect((await oneClick(oneClickUrl)).status).toBe(200);
    expect((await fetch(oneClickUrl).then((response) => response.json())).data.isOn).toBe(false);
  });

  it("never puts unsubscribe links on account mail", async () => {
    const fresh = await signUpPerson(t, "unsub-account");
    const verification = t.inbox!.mails.find((m) => m.to.includes(fresh.address))!;
    expect(verification.headers["list-unsubscribe"]).toBeUndefined();
  });

  it("refuses a forged, altered or expired link and changes nothing", async () => {
    const secret = t.ctx.config.authSecret;
    const url = (token: string) => `${t.url}/api/mail/unsubscribe?token=${encodeURIComponent(token)}`;
    const forged = mintUnsubscribeToken("not the instance's secret", owner.uid, "mentions");
    const refusedForged = await expectRefused(t, () => oneClick(url(forged)), 400, "unsubscribe-invalid");
    expect(refusedForged.body.message).toBe(UNSUBSCRIBE_MESSAGES.invalid);
    const real = mintUnsubscribeToken(secret, owner.uid, "mentions");
    await expectRefused(t, () => oneClick(url(`${real}x`)), 400, "unsubscribe-invalid");
    const expired = mintUnsubscribeToken(
      secret,
      owner.uid,
      "mentions",
      Date.now() - UNSUBSCRIBE_TTL_MS - 1000,
    );
    const refusedExpired = await expectRefused(t, () => oneClick(url(expired)), 400, "unsubscribe-expired");
    expect(refusedExpired.body.message).toBe(UNSUBSCRIBE_MESSAGES.expired);
    await expectRefused(t, () => oneClick(`${t.url}/api/mail/unsubscribe`), 400);
    expect((await preferences()).mentions).toBe(true);
  });
});
