import { describe, expect, it } from "vitest";
import { formatGuestIdentity, parseGuestIdentity } from "./guests.ts";

describe("guest identity", () => {
  it("reads the public guest as Anonymous with the first share avatar", () => {
    expect(parseGuestIdentity("public")).toEqual({
      name: "Anonymous",
      email: null,
      avatar: "avatar-share-0",
    });
  });

  it("round-trips name, e-mail and avatar", () => {
    const identity = formatGuestIdentity({ avatarIndex: 3, name: "Ada Lovelace", email: "ada@example.com" });
    expect(identity).toBe("guest__3__Ada Lovelace__ada@example.com");
    expect(parseGuestIdentity(identity)).toEqual({
      name: "Ada Lovelace",
      email: "ada@example.com",
      avatar: "avatar-share-3",
    });
    expect(parseGuestIdentity("guest__-1__Bob__")).toEqual({
      name: "Bob",
      email: null,
      avatar: "avatar-share-0",
    });
  });

  it("rejects what does not match the guest pattern", () => {
    for (const value of [
      "",
      "guest",
      "guest__x__Bob__",
      "guest__1____",
      "guest__1__Bob__not-an-email",
      "user__1__Bob__",
      `guest__1__${"a".repeat(81)}__`,
    ]) {
      expect(parseGuestIdentity(value), value).toBeNull();
    }
  });
});
