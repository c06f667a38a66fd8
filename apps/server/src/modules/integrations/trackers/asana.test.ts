import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyAsanaWebhook } from "../../../integrations/asana/index.ts";
import { asanaTracker } from "./asana.ts";

const tracker = asanaTracker({
  apiUrl: "https://asana.example/api/1.0",
  authorizeUrl: "https://asana.example/-/oauth_authorize",
  tokenUrl: "https://asana.example/-/oauth_token",
  redirectUri: "https://redline.example/integration/asana",
  clientId: "client",
  clientSecret: "secret",
});
const SECRET = "b537207f20cbfa02357cf448134da559e8bd39d61597dcd5631b8012eae53e81";
const sign = (body: string, secret = SECRET) => createHmac("sha256", secret).update(body).digest("hex");
const callbackUrl = "https://redline.example/api/integrations/asana/webhook/i1";
const event = (change: object) => ({
  action: "changed",
  created_at: "2026-11-29T08:00:00.000Z",
  resource: { gid: "1201", resource_type: "task", resource_subtype: "default_task" },
  change: { field: "completed", action: "changed" },
  ...change,
});

describe("Asana's webhook handshake and signature", () => {
  it("echoes the handshake's X-Hook-Secret and keeps it; a request without one is no handshake", () => {
    expect(tracker.handshake!({ rawBody: "", headers: { "x-hook-secret": SECRET }, callbackUrl })).toEqual({
      headers: { "X-Hook-Secret": SECRET },
      hookSecret: SECRET,
    });
    expect(tracker.handshake!({ rawBody: "{}", headers: {}, callbackUrl })).toBeNull();
    expect(
      tracker.handshake!({ rawBody: "", headers: { "x-hook-secret": ["a", "b"] }, callbackUrl }),
    ).toBeNull();
  });

  it("verifies X-Hook-Signature (hex HMAC-SHA256 of the raw body) and refuses anything else", () => {
    const body = JSON.stringify({ events: [event({})] });
    expect(verifyAsanaWebhook(SECRET, body, sign(body))).toBe(true);
    expect(verifyAsanaWebhook(SECRET, body, sign(body).toUpperCase())).toBe(true);
    expect(verifyAsanaWebhook(SECRET, `${body} `, sign(body))).toBe(false);
    expect(verifyAsanaWebhook(SECRET, body, sign(body, "another secret"))).toBe(false);
    expect(verifyAsanaWebhook(SECRET, body, sign(body).slice(2))).toBe(false);
    expect(verifyAsanaWebhook(SECRET, body, undefined)).toBe(false);
  });

  it("reads a completed change as a change to read (the event does not carry the value)", () => {
    const body = JSON.stringify({
      events: [
        event({}),
        event({ change: { field: "name", action: "changed" } }),
        event({ action: "added" }),
        event({ resource: { gid: "9", resource_type: "story" } }),
      ],
    });
    const headers = { "x-hook-signature": sign(body) };
    expect(tracker.verifyInbound({ rawBody: body, headers, callbackUrl }, { hookSecret: SECRET })).toEqual([
      { externalId: "1201", closed: null, at: new Date("2026-11-29T08:00:00.000Z") },
    ]);
    // Asana's heartbeat: no events.
    const beat = JSON.stringify({ events: [] });
    expect(
      tracker.verifyInbound(
        { rawBody: beat, headers: { "x-hook-signature": sign(beat) }, callbackUrl },
        {
          hookSecret: SECRET,
        },
      ),
    ).toEqual([]);
  });

  it("refuses a delivery before a handshake kept a secret, and one signed with another", () => {
    const body = JSON.stringify({ events: [event({})] });
    expect(
      tracker.verifyInbound({ rawBody: body, headers: { "x-hook-signature": sign(body) }, callbackUrl }, {}),
    ).toBeNull();
    expect(
      tracker.verifyInbound(
        { rawBody: body, headers: { "x-hook-signature": sign(body, "forged") }, callbackUrl },
        { hookSecret: SECRET },
      ),
    ).toBeNull();
  });
});
