import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseIssueId, verifyGithubWebhook } from "./index.ts";

const secret = "a1b2c3";
/** GitHub's own recipe, written out here rather than borrowed from the code under test. */
const sign = (key: string, body: string) => `sha256=${createHmac("sha256", key).update(body).digest("hex")}`;

describe("GitHub's webhook signature (X-Hub-Signature-256)", () => {
  const body = JSON.stringify({ action: "closed", issue: { number: 7 } });

  it("accepts the hex HMAC-SHA256 of the exact body under the hook's secret", async () => {
    expect(await verifyGithubWebhook(secret, body, sign(secret, body))).toBe(true);
  });

  it("refuses another secret, a changed body, another algorithm, a bare digest and no signature", async () => {
    expect(await verifyGithubWebhook(secret, body, sign("guess", body))).toBe(false);
    expect(await verifyGithubWebhook(secret, `${body} `, sign(secret, body))).toBe(false);
    const sha1 = `sha1=${createHmac("sha1", secret).update(body).digest("hex")}`;
    expect(await verifyGithubWebhook(secret, body, sha1)).toBe(false);
    expect(await verifyGithubWebhook(secret, body, sign(secret, body).slice("sha256=".length))).toBe(false);
    expect(await verifyGithubWebhook(secret, body, undefined)).toBe(false);
    expect(await verifyGithubWebhook("", body, sign("", body))).toBe(false);
  });
});

describe("GitHub's issue ids", () => {
  it("reads owner/repo#number and nothing else", () => {
    expect(parseIssueId("octo-org/web.site#12")).toEqual({
      owner: "octo-org",
      repo: "web.site",
      issueNumber: 12,
    });
    for (const id of ["octo/site", "octo/site#0", "octo#1", "octo/site/x#1", "octo/site#1a", ""])
      expect(parseIssueId(id)).toBeNull();
  });
});
