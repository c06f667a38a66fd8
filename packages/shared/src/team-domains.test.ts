import { describe, expect, it } from "vitest";
import {
  cnameCheck,
  customHostTitle,
  DOMAIN_MAX,
  domainRecords,
  domainStatusOf,
  isOwnHost,
  type RecordCheck,
  setTeamDomainSchema,
  TEAM_DOMAIN_MESSAGES,
  teamDomainSchema,
  txtCheck,
} from "./team-domains.ts";

describe("a team's domain as entered", () => {
  it("is trimmed and lower-cased, one trailing dot dropped", () => {
    expect(teamDomainSchema.parse("  Review.Example.COM ")).toBe("review.example.com");
    expect(teamDomainSchema.parse("review.example.com.")).toBe("review.example.com");
    expect(teamDomainSchema.parse("xn--bcher-kva.example")).toBe("xn--bcher-kva.example");
    expect(teamDomainSchema.parse("a-b.c1.example.io")).toBe("a-b.c1.example.io");
  });

  it.each([
    "",
    "localhost-only",
    "https://review.example.com",
    "review.example.com:8443",
    "review.example.com/path",
    "*.example.com",
    "review..example.com",
    "-review.example.com",
    "review-.example.com",
    "review_1.example.com",
    "192.168.0.1",
    "bücher.example",
    "review.example.com..",
    `${"a".repeat(64)}.example.com`,
  ])("refuses %j with the one message", (value) => {
    const parsed = teamDomainSchema.safeParse(value);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(TEAM_DOMAIN_MESSAGES.invalid);
  });

  it("is at most 253 characters", () => {
    const label = "a".repeat(62);
    const longest = [label, label, label, "a".repeat(61), "io"].join(".");
    expect(longest).toHaveLength(DOMAIN_MAX);
    expect(teamDomainSchema.safeParse(longest).success).toBe(true);
    expect(teamDomainSchema.safeParse(`a${longest}`).success).toBe(false);
  });

  it("is the only field of the request", () => {
    expect(setTeamDomainSchema.safeParse({ domain: "a.example", token: "x" }).success).toBe(false);
  });
});

describe("the records to create", () => {
  it("are a CNAME to the instance and the TXT token under _redline-challenge", () => {
    expect(domainRecords("review.example.com", "app.redline.test", "tok")).toEqual([
      { type: "CNAME", name: "review.example.com", value: "app.redline.test" },
      { type: "TXT", name: "_redline-challenge.review.example.com", value: "redline-verification=tok" },
    ]);
  });
});

describe("a check", () => {
  it.each<[RecordCheck, RecordCheck, string]>([
    ["match", "match", "active"],
    ["match", "missing", "verified"],
    ["match", "mismatch", "failed"],
    ["mismatch", "match", "failed"],
    ["mismatch", "missing", "failed"],
    ["missing", "mismatch", "failed"],
    ["missing", "match", "pending"],
    ["missing", "missing", "pending"],
  ])("TXT %s, CNAME %s → %s", (txt, cname, status) => {
    expect(domainStatusOf({ txt, cname })).toBe(status);
  });

  it("reads TXT answers, joining the strings DNS splits long ones into", () => {
    expect(txtCheck(null, "tok")).toBe("missing");
    expect(txtCheck([], "tok")).toBe("missing");
    expect(txtCheck([["v=spf1"], ["redline-", "verification=tok"]], "tok")).toBe("match");
    expect(txtCheck([["redline-verification=other"]], "tok")).toBe("mismatch");
  });

  it("reads CNAME answers whatever their case or trailing dot", () => {
    expect(cnameCheck(null, "app.redline.test")).toBe("missing");
    expect(cnameCheck(["App.Redline.Test."], "app.redline.test")).toBe("match");
    expect(cnameCheck(["elsewhere.example"], "app.redline.test")).toBe("mismatch");
  });
});

describe("hosts", () => {
  const own = ["app.redline.test", "content.redline.test"];
  it("knows the instance's own hosts and loopback names", () => {
    for (const host of [
      "app.redline.test",
      "CONTENT.redline.test.",
      "localhost",
      "x.localhost",
      "127.0.0.1",
      "[::1]",
    ])
      expect(isOwnHost(host, own), host).toBe(true);
    expect(isOwnHost("review.example.com", own)).toBe(false);
    expect(isOwnHost("sub.app.redline.test", own)).toBe(false);
  });

  it("titles a custom host after its team, else the host name (SPEC §2)", () => {
    expect(customHostTitle("review.example.com", "Acme Studio")).toBe("Acme Studio");
    expect(customHostTitle("Review.Example.com", null)).toBe("review.example.com");
    expect(customHostTitle("review.example.com", "  ")).toBe("review.example.com");
  });
});
