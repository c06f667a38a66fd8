/**
 * Unsubscribing from a kind of notification mail in a real browser (issue #16): the link in a comment
 * notification's footer opens /unsubscribe without a sign-in, names the kind, and one click turns only
 * that preference off.
 */
import { UNSUBSCRIBE_MESSAGES } from "@redline/shared";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E } from "./harness.ts";
import { shot, signedIn } from "./helpers.ts";

describe("unsubscribe", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e.close());

  it("turns one kind of mail off from the mail's link, signed out", async () => {
    const owner = await signedIn(e2e, "unsub-owner", "Olive Owner");
    const member = await signedIn(e2e, "unsub-member", "Mo Member");
    const projectId = (await owner.api.post("/api/projects", { title: "Launch" })).body.data.id as string;
    const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#e5383b" } })
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
    await member.api.post(`/api/versions/${versionId}/comments`, {
      dotPosition: { x: 0.5, y: 0.5 },
      deviceWidth: 1280,
      comment: "Looks good",
    });
    const mail = await e2e.app.inbox!.waitFor(
      (m) => m.to.includes(owner.email) && m.subject.startsWith("Mo Member commented"),
      15_000,
    );
    const link = mail.text.match(/Stop e-mails about new comments: (\S+)/)![1]!;

    const visitor = await e2e.newPage();
    await visitor.goto(link);
    await visitor.getByText("Stop e-mails about new comments?", { exact: false }).waitFor();
    await shot(visitor, "unsubscribe-01-ask");
    await visitor.getByRole("button", { name: "Unsubscribe from new comments" }).click();
    await visitor.getByRole("status").getByText(UNSUBSCRIBE_MESSAGES.done("New comments")).waitFor();
    await shot(visitor, "unsubscribe-02-done");
    expect((await owner.api.get("/api/me")).body.data.emailPreferences).toMatchObject({
      comments: false,
      mentions: true,
    });

    // A link someone altered: said so, nothing changed.
    await visitor.goto(`${link}x`);
    await visitor.getByRole("alert").getByText(UNSUBSCRIBE_MESSAGES.invalid).waitFor();
  });
});
