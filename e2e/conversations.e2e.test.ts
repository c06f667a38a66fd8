/**
 * The messages area (SPEC §2, §3; issue #16) in a real browser: a guest of the public link and the
 * project's owner exchange messages, one with an attachment, while the unread counts on the header icon
 * and the guest's Messages button appear and clear — live on both sides, the guest's through its own
 * realtime socket (nothing polls); 'Need help?' opens the support conversation and the message reaches the
 * support mailbox.
 */
import { MAX_CONVERSATION_MESSAGE } from "@redline/shared";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpVerified } from "../apps/server/src/testing/http-client.ts";
import { type E2E, startE2E, uniqueEmail } from "./harness.ts";
import { addMember, newProject, PASSWORD, shot, signedIn } from "./helpers.ts";

const SUPPORT = "help@redline.example";

describe("conversations", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ config: { supportEmail: SUPPORT } });
  });
  afterAll(() => e2e?.close());

  it("lets a guest and a member exchange messages with an attachment, with unread counts", async () => {
    const owner = await signedIn(e2e, "messages-owner", "Ada Lovelace");
    const projectId = await newProject(owner.api, "Launch site");
    const png = await sharp({ create: { width: 480, height: 320, channels: 3, background: "#2f5fb3" } })
      .png()
      .toBuffer();
    await owner.api.upload(`/api/projects/${projectId}/uploads`, {
      name: "home.png",
      type: "image/png",
      bytes: png,
    });
    await owner.api.patch(`/api/projects/${projectId}/sharing`, { public: true, canComment: true });

    // The guest names themselves once, then writes to the project's people.
    const guest = await e2e.newPage();
    await guest.goto(`/share/${projectId}`);
    await guest.getByLabel("Your name").fill("Gail");
    await guest.getByRole("button", { name: "Continue", exact: true }).click();
    await guest.getByRole("button", { name: "Messages", exact: true }).click();
    const guestPanel = guest.getByRole("dialog", { name: "Messages" });
    await guestPanel.getByText("This is the very beginning your conversations.").waitFor();
    await guestPanel.getByRole("textbox", { name: "Message" }).fill("Hello! Is the pricing page final?");
    await guestPanel.getByRole("button", { name: "Send" }).click();
    await guestPanel.getByText("Hello! Is the pricing page final?").waitFor();
    await guest.keyboard.press("Escape");

    // The owner's header icon counts it, live; opening the conversation reads it.
    const badge = owner.page.getByTestId("messages-badge");
    await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toBe("1");
    await owner.page.getByRole("button", { name: "Messages (1 unread)" }).click();
    const panel = owner.page.getByRole("dialog", { name: "Messages" });
    const item = panel.getByRole("button", { name: /Gail/ });
    await item.getByText("Hello! Is the pricing page final?").waitFor();
    await shot(owner.page, "conversations-01-panel");
    await item.click();
    await panel.getByRole("heading", { name: "Gail" }).waitFor();
    await panel.getByText("Hello! Is the pricing page final?").waitFor();
    await badge.waitFor({ state: "detached" });

    // A paste over the limit is kept whole and said so; Send waits until it fits (issue #36).
    const box = panel.getByRole("textbox", { name: "Message" });
    await box.focus();
    await owner.page.keyboard.insertText("x".repeat(MAX_CONVERSATION_MESSAGE + 1));
    await panel.getByRole("alert").getByText("The message can be at most 4,000 characters.").waitFor();
    await panel.getByText("4,001 / 4,000").waitFor();
    expect(await panel.getByRole("button", { name: "Send" }).isDisabled()).toBe(true);
    await shot(owner.page, "conversations-01b-over-limit");
    await box.fill("");

    // The owner answers with a file.
    await panel
      .getByTestId("message-file")
      .setInputFiles({ name: "pricing.png", mimeType: "image/png", buffer: png });
    await panel.getByText("pricing.png").waitFor();
    await panel.getByRole("textbox", { name: "Message" }).fill("Almost: here is the latest mockup.");
    await panel.getByRole("button", { name: "Send" }).click();
    await panel.getByText("Almost: here is the latest mockup.").waitFor();
    await panel.getByRole("button", { name: "pricing.png" }).waitFor();
    await shot(owner.page, "conversations-02-thread");

    // The guest's button counts the answer, pushed over the guest's socket (the view does not poll: the
    // bound only keeps a loaded machine from failing the test), and reading it clears the count.
    const guestBadge = guest.getByTestId("messages-badge");
    await expect.poll(() => guestBadge.textContent(), { timeout: 8_000 }).toBe("1");
    await guest.getByRole("button", { name: "Messages (1 unread)" }).click();
    await guestPanel.getByText("Almost: here is the latest mockup.").waitFor();
    await guestPanel.getByRole("button", { name: "pricing.png" }).waitFor();
    await shot(guest, "conversations-03-guest-thread");
    await guestBadge.waitFor({ state: "detached", timeout: 8_000 });
    const download = guest.waitForEvent("download");
    await guestPanel.getByRole("button", { name: "pricing.png" }).click();
    expect((await download).suggestedFilename()).toBe("pricing.png");

    // With the guest's panel open, the next answer appears in it live and is read there (no count).
    await panel.getByRole("textbox", { name: "Message" }).fill("Final by Friday.");
    await panel.getByRole("button", { name: "Send" }).click();
    await guestPanel.getByText("Final by Friday.").waitFor({ timeout: 8_000 });
    await guestBadge.waitFor({ state: "detached" });

    // A member starts a conversation with another of the project's people.
    const bobEmail = uniqueEmail("messages-bob");
    const bob = await signUpVerified(e2e.baseUrl, e2e.app.inbox!, bobEmail, PASSWORD, "Bob Babbage");
    await addMember(owner.api, projectId, bobEmail, "comment");
    await panel.getByRole("button", { name: "Back to conversations" }).click();
    await panel.getByRole("button", { name: "New conversation" }).click();
    await panel.getByLabel("Project").selectOption({ label: "Launch site" });
    await panel.getByLabel(/Bob Babbage/).check();
    await shot(owner.page, "conversations-04-new");
    await panel.getByRole("button", { name: "Start conversation" }).click();
    await panel.getByRole("heading", { name: "Bob Babbage" }).waitFor();
    await panel.getByRole("textbox", { name: "Message" }).fill("Bob, can you check the mockup?");
    await panel.getByRole("button", { name: "Send" }).click();
    await panel.getByText("Bob, can you check the mockup?").waitFor();
    await expect.poll(async () => (await bob.get("/api/conversations/unread")).body.data.unread).toBe(1);

    // 'Need help?' opens the support conversation; the message reaches the support mailbox.
    await owner.page.keyboard.press("Escape");
    await owner.page.getByRole("button", { name: "Need help?" }).click();
    await panel.getByRole("heading", { name: "Support" }).waitFor();
    await panel.getByRole("textbox", { name: "Message" }).fill("How do I invite my whole team?");
    await panel.getByRole("button", { name: "Send" }).click();
    await panel.getByText("How do I invite my whole team?").waitFor();
    await shot(owner.page, "conversations-05-support");
    const mail = await e2e.app.inbox!.waitFor(
      (m) => m.to.includes(SUPPORT) && m.subject.includes("Need help?"),
    );
    expect(mail.text).toContain("How do I invite my whole team?");
    expect(mail.headers["reply-to"]).toContain(owner.email);
  });
});
