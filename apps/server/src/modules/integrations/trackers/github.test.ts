import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DELETED_LABEL, githubTracker } from "./github.ts";

const secret = "a1b2c3";
const sign = (key: string, body: string) => `sha256=${createHmac("sha256", key).update(body).digest("hex")}`;

describe("GitHub as a tracker: what an inbound request tells", () => {
  const tracker = githubTracker({
    apiUrl: "http://127.0.0.1:9/api/v3",
    authorizeUrl: "http://127.0.0.1:9/login/oauth/authorize",
    tokenUrl: "http://127.0.0.1:9/login/oauth/access_token",
    clientId: "id",
    clientSecret: "secret",
  });
  const at = "2026-11-29T08:00:00Z";
  const deliver = (event: string, payload: unknown, key = secret) => {
    const rawBody = JSON.stringify(payload);
    return tracker.verifyInbound(
      {
        rawBody,
        headers: { "x-github-event": event, "x-hub-signature-256": sign(key, rawBody) },
        callbackUrl: "http://127.0.0.1/hook",
      },
      { hookSecret: secret },
    );
  };
  const issues = (action: string, labels: string[] = []) => ({
    action,
    issue: {
      number: 12,
      html_url: "https://github.com/octo/site/issues/12",
      updated_at: at,
      closed_at: action === "closed" ? at : null,
      labels: labels.map((name) => ({ name })),
    },
    repository: { full_name: "octo/site" },
  });

  it("reads a close and a reopen as the issue's change, at GitHub's time", async () => {
    expect(await deliver("issues", issues("closed"))).toEqual([
      { externalId: "octo/site#12", closed: true, at: new Date(at) },
    ]);
    expect(await deliver("issues", issues("reopened"))).toEqual([
      { externalId: "octo/site#12", closed: false, at: new Date(at) },
    ]);
  });

  it("ignores a ping, other actions and the close of an issue deleted from Redline", async () => {
    expect(await deliver("ping", { zen: "Design for failure.", hook_id: 1 })).toEqual([]);
    expect(await deliver("issues", issues("edited"))).toEqual([]);
    expect(await deliver("issues", issues("closed", [DELETED_LABEL]))).toEqual([]);
  });

  it("is not GitHub's when signed with another secret or when the hook has none", async () => {
    expect(await deliver("issues", issues("closed"), "guess")).toBeNull();
    const rawBody = JSON.stringify(issues("closed"));
    expect(
      await tracker.verifyInbound(
        {
          rawBody,
          headers: { "x-github-event": "issues", "x-hub-signature-256": sign(secret, rawBody) },
          callbackUrl: "",
        },
        {},
      ),
    ).toBeNull();
  });
});
