/**
 * Notification mail in a real browser (issue #16): a burst of comments arrives as one mail; its link
 * opens the comment; its one-click unsubscribe, POSTed the way a mail client does (RFC 8058), turns that
 * preference off without a sign-in — and the profile page shows it off. Pages added in a burst are one
 * mail too, whose link opens the page, with no unsubscribe (no preference covers it: ADR 0017).
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E } from "./harness.ts";
import { shot, signedIn } from "./helpers.ts";

/** Long enough for a burst of 20 comments on a busy machine; the production default is 2 minutes. */
const WINDOW_MS = 10_000;

describe("notification mail", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ config: { mailBatchWindowMs: WINDOW_MS } });
  });
  afterAll(() => e2e.close());

  it("a burst of comments is one mail whose link opens the comment and whose unsubscribe works signed out", {
    timeout: 120_000,
  }, async () => {
    const owner = await signedIn(e2e, "burst-owner", "Olive Owner");
    const member = await signedIn(e2e, "burst-member", "Mo Member");
    const projectId = (await owner.api.post("/api/projects", { title: "Launch" })).body.data.id as string;
    const bytes = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#e5383b" } })
      .png()
      .toBuffer();
    const { versionId } = (
      await owner.api.upload(`/api/projects/${projectId}/uploads`, {
        name: "Home.png",
        type: "image/png",
        bytes,
      })
    ).body.data;
    await owner.api.post(`/api/projects/${projectId}/members`, { email: member.email, access: "comment" });

    const texts = new Map<string, string>();
    // All at once, as a burst (one after another may outlast the window on a loaded machine).
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        member.api.post(`/api/versions/${versionId}/comments`, {
          dotPosition: { x: 0.1 + index * 0.04, y: 0.5 },
          deviceWidth: 1280,
          comment: `Burst point ${index + 1}`,
        }),
      ),
    );
    made.forEach((answer, index) => {
      expect(answer.status).toBe(201);
      texts.set(answer.body.data.id, `Burst point ${index + 1}`);
    });
    const isOwnersNotification = (m: { to: string[]; headers: Record<string, string> }) =>
      m.to.includes(owner.email) && Boolean(m.headers["list-unsubscribe"]);
    const mail = await e2e.app.inbox!.waitFor(isOwnersNotification, 30_000);
    // Whatever is still to come would come within another window.
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 3000));
    expect(e2e.app.inbox!.mails.filter(isOwnersNotification)).toHaveLength(1);

    // The link opens the comment it names, in the browser of the person it was sent to.
    const link = new URL(mail.link!);
    const commentId = link.searchParams.get("id")!;
    expect(texts.has(commentId)).toBe(true);
    await owner.page.goto(`${link.pathname}${link.search}`);
    // Its thread is the one open (not just listed): the section titled by that comment, with its words.
    const thread = owner.page.locator(`section[aria-labelledby="thread-${commentId}"]`);
    await thread.getByText(texts.get(commentId)!, { exact: true }).waitFor();
    await thread.getByRole("button", { name: "Back to all comments" }).waitFor();
    expect(new URL(owner.page.url()).searchParams.get("id")).toBe(commentId);
    await shot(owner.page, "notification-mail-01-opened");

    // One-click unsubscribe as a mail client sends it: no cookies, form-encoded, to the header's URL.
    const oneClick = mail.headers["list-unsubscribe"]!.replace(/^<|>$/g, "");
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    const posted = await fetch(oneClick, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(posted.status).toBe(200);

    await owner.page.goto("/profile");
    await expect
      .poll(() => owner.page.getByRole("switch", { name: "New comments" }).getAttribute("aria-checked"))
      .toBe("false");
    expect(await owner.page.getByRole("switch", { name: "Mentions" }).getAttribute("aria-checked")).toBe(
      "true",
    );
    await shot(owner.page, "notification-mail-02-profile");
  });

  it("pages added in a burst are one mail, without unsubscribe, whose link opens the page", {
    timeout: 120_000,
  }, async () => {
    const owner = await signedIn(e2e, "pages-owner", "Olive Owner");
    const member = await signedIn(e2e, "pages-member", "Mo Member");
    const projectId = (await owner.api.post("/api/projects", { title: "Launch" })).body.data.id as string;
    await owner.api.post(`/api/projects/${projectId}/members`, { email: member.email, access: "comment" });
    const bytes = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#2f5fb3" } })
      .png()
      .toBuffer();
    const added = await Promise.all(
      ["Pricing.png", "About.png"].map((name) =>
        owner.api.upload(`/api/projects/${projectId}/uploads`, { name, type: "image/png", bytes }),
      ),
    );
    for (const answer of added) expect(answer.status).toBe(201);
    const isMembersPagesMail = (m: { to: string[]; subject: string }) =>
      m.to.includes(member.email) && m.subject.includes("pages to project");
    const mail = await e2e.app.inbox!.waitFor(isMembersPagesMail, 30_000);
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 3000));
    expect(e2e.app.inbox!.mails.filter(isMembersPagesMail)).toHaveLength(1);
    expect(mail.subject).toBe("Olive Owner added 2 pages to project “Launch”");
    expect(mail.headers["list-unsubscribe"]).toBeUndefined();
    // The actor is not mailed.
    const ownersPagesMails = e2e.app.inbox!.mails.filter(
      (m) => m.to.includes(owner.email) && m.subject.includes("pages to project"),
    );
    expect(ownersPagesMails).toHaveLength(0);

    // The first link opens that page in the member's browser.
    const link = new URL(mail.link!);
    const page = added.find((answer) => link.pathname.includes(answer.body.data.versionId));
    expect(page).toBeDefined();
    await member.page.goto(`${link.pathname}${link.search}`);
    const title = page === added[0] ? "Pricing" : "About";
    await member.page.getByRole("img", { name: title }).waitFor();
    await shot(member.page, "notification-mail-03-page-added");
  });
});
