import { describe, expect, it } from "vitest";
import {
  checkedLabel,
  checkOutcome,
  DOMAIN_STATUS_TONE,
  domainStatusHint,
  domainStatusLabel,
} from "./domain-status.ts";

const records = [
  { type: "CNAME" as const, name: "review.example.com", value: "app.redline.test" },
  { type: "TXT" as const, name: "_redline-challenge.review.example.com", value: "redline-verification=t" },
];

describe("custom-domain status wording", () => {
  it("labels and colours each status", () => {
    expect(["pending", "verified", "active", "failed"].map((s) => domainStatusLabel(s as "pending"))).toEqual(
      ["Pending", "Verified", "Active", "Failed"],
    );
    expect(DOMAIN_STATUS_TONE).toEqual({
      pending: "warning",
      verified: "success",
      active: "success",
      failed: "danger",
    });
  });

  it("says what comes next, naming the CNAME target once verified", () => {
    const domain = { domain: "review.example.com", records };
    expect(domainStatusHint({ ...domain, status: "pending" })).toMatch(/^Create both records/);
    expect(domainStatusHint({ ...domain, status: "verified" })).toContain("CNAME at app.redline.test");
    expect(domainStatusHint({ ...domain, status: "active" })).toBe(
      "Live: review.example.com opens Redline under this team's name.",
    );
    expect(domainStatusHint({ ...domain, status: "failed" })).toMatch(/Correct it/);
  });

  it("shows a check's message by how it went", () => {
    expect(checkOutcome("active")).toBe("success");
    expect(checkOutcome("verified")).toBe("success");
    expect(checkOutcome("failed")).toBe("warning");
    expect(checkOutcome("pending")).toBe("info");
    expect(checkOutcome(null)).toBe("info");
  });

  it("says when DNS was last asked", () => {
    expect(checkedLabel(null, () => "x")).toBe("Not checked yet");
    expect(checkedLabel("2030-01-01T00:00:00Z", () => "just now")).toBe("Checked just now");
  });
});
