import { describe, expect, it } from "vitest";
import { mintUnsubscribeToken, readUnsubscribeToken, UNSUBSCRIBE_TTL_MS } from "./unsubscribe-token.ts";

const SECRET = "a secret long enough for the tests";

describe("unsubscribe tokens", () => {
  it("name the user and the preference they were minted for", () => {
    const token = mintUnsubscribeToken(SECRET, "user-1", "mentions");
    expect(readUnsubscribeToken(SECRET, token)).toEqual({
      ok: true,
      userId: "user-1",
      preference: "mentions",
    });
  });

  it("refuse a token signed with another secret, altered, or malformed", () => {
    const token = mintUnsubscribeToken(SECRET, "user-1", "comments");
    expect(readUnsubscribeToken("another secret entirely", token)).toEqual({ ok: false, reason: "invalid" });
    const [payload, signature] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ u: "user-2", p: "comments", e: Date.now() + 1000 })).toString(
      "base64url",
    );
    expect(readUnsubscribeToken(SECRET, `${forged}.${signature}`)).toEqual({ ok: false, reason: "invalid" });
    expect(readUnsubscribeToken(SECRET, `${payload}.`)).toEqual({ ok: false, reason: "invalid" });
    expect(readUnsubscribeToken(SECRET, "nonsense")).toEqual({ ok: false, reason: "invalid" });
    expect(readUnsubscribeToken(SECRET, `${token}.extra`)).toEqual({ ok: false, reason: "invalid" });
  });

  it("expire after their time", () => {
    const minted = Date.now() - UNSUBSCRIBE_TTL_MS - 1;
    const token = mintUnsubscribeToken(SECRET, "user-1", "edits", minted);
    expect(readUnsubscribeToken(SECRET, token)).toEqual({ ok: false, reason: "expired" });
    expect(readUnsubscribeToken(SECRET, token, minted + 1000)).toMatchObject({ ok: true });
  });
});
