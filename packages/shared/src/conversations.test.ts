import { describe, expect, it } from "vitest";
import {
  CONVERSATION_TEXTS,
  type ConversationParticipant,
  conversationPreview,
  conversationTitle,
  isForbiddenAttachment,
  sendMessageSchema,
} from "./conversations.ts";

const person = (uid: string, displayName: string, extra: Partial<ConversationParticipant> = {}) => ({
  uid,
  displayName,
  photoURL: null,
  isAnonymous: false,
  isGuest: false,
  ...extra,
});
const me = person("me", "Mia Self");
const ada = person("ada", "Ada Lovelace");
const bob = person("bob", "Bob Babbage");
const cy = person("cy", "Cy Young");
const di = person("di", "Di Prince");

describe("conversationTitle (SPEC §3)", () => {
  it("shows a guest of the link by its name, or 'Guest Messages' without one", () => {
    expect(conversationTitle([me, ada, person("g1", "Gail", { isGuest: true })], "me")).toBe("Gail");
    expect(conversationTitle([me, person("g1", " ", { isGuest: true })], "me")).toBe("Guest Messages");
  });

  it("gives 'Anonymous User' for the anonymous visitor", () => {
    expect(
      conversationTitle([me, person("g2", "Anonymous", { isGuest: true, isAnonymous: true })], "me"),
    ).toBe(CONVERSATION_TEXTS.anonymousUser);
  });

  it("shows one other participant's full name", () => {
    expect(conversationTitle([me, ada], "me")).toBe("Ada Lovelace");
    expect(conversationTitle([me], "me")).toBe("Mia Self");
  });

  it("shows two others' first names, sorted, '& You'", () => {
    expect(conversationTitle([me, bob, ada], "me")).toBe("Ada, Bob & You");
  });

  it("shows the first two sorted first names and '& N other(s)' for more, whatever the storage order", () => {
    expect(conversationTitle([me, bob, ada, cy], "me")).toBe("Ada, Bob & 1 other");
    expect(conversationTitle([me, cy, di, bob, ada], "me")).toBe("Ada, Bob & 2 others");
    expect(conversationTitle([di, cy, me, ada, bob], "me")).toBe("Ada, Bob & 2 others");
    const ann = person("ann", "Ada Byron");
    expect(conversationTitle([me, cy, ada, ann], "me")).toBe(conversationTitle([me, ann, cy, ada], "me"));
  });

  it("reads the same conversation from the guest's side as the people they talk with", () => {
    const gail = person("g1", "Gail", { isGuest: true });
    expect(conversationTitle([gail, ada], "g1")).toBe("Ada Lovelace");
  });
});

describe("conversationPreview (SPEC §3)", () => {
  it("shows the message, 'Sent an attachment' for files only, or the beginning", () => {
    expect(conversationPreview({ message: "Hello", attachments: [] })).toBe("Hello");
    expect(conversationPreview({ message: "", attachments: [{}] })).toBe("Sent an attachment");
    expect(conversationPreview(null)).toBe("This is the very beginning your conversations.");
  });
});

describe("messages", () => {
  it("refuses files that run or render as code", () => {
    expect(isForbiddenAttachment({ name: "setup.exe", type: "application/octet-stream" })).toBe(true);
    expect(isForbiddenAttachment({ name: "page", type: "text/html; charset=utf-8" })).toBe(true);
    expect(isForbiddenAttachment({ name: "logo.SVG", type: "image/svg+xml" })).toBe(true);
    expect(isForbiddenAttachment({ name: "shot.png", type: "image/png" })).toBe(false);
    expect(isForbiddenAttachment({ name: "notes.pdf", type: "application/pdf" })).toBe(false);
  });

  it("needs a message or an attachment", () => {
    expect(sendMessageSchema.safeParse({ message: "  " }).success).toBe(false);
    expect(sendMessageSchema.safeParse({ message: "Hi" }).success).toBe(true);
  });
});
