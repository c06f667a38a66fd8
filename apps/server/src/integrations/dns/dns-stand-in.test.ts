import { type DevDnsServer, DnsRecordConflict, startDevDnsServer } from "@redline/stand-ins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDnsLookup, type DnsLookup, DnsLookupError } from "./index.ts";

describe("the embedded DNS server, asked through the app's resolver", () => {
  let server: DevDnsServer;
  let lookup: DnsLookup;
  beforeAll(async () => {
    server = await startDevDnsServer();
    lookup = createDnsLookup([server.address], { timeoutMs: 1000, tries: 1 });
  });
  afterAll(() => server.close());

  it("listens on an ephemeral port of 127.0.0.1", () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.address).toBe(`127.0.0.1:${server.port}`);
  });

  it("answers TXT and CNAME from its table, names in any case", async () => {
    server.add({
      type: "TXT",
      name: "_redline-challenge.Review.Example.test",
      value: "redline-verification=abc",
    });
    server.add({ type: "CNAME", name: "review.example.test.", value: "App.Redline.Test." });
    expect(await lookup.txt("_redline-challenge.review.example.test")).toEqual([
      ["redline-verification=abc"],
    ]);
    expect(await lookup.cname("REVIEW.example.test")).toEqual(["app.redline.test"]);
  });

  it("splits long TXT values into 255-byte strings, as DNS carries them", async () => {
    const value = "x".repeat(300);
    server.add({ type: "TXT", name: "long.example.test", value });
    const [record] = (await lookup.txt("long.example.test"))!;
    expect(record!.map((chunk) => chunk.length)).toEqual([255, 45]);
    expect(record!.join("")).toBe(value);
  });

  it("says 'no record' for an unknown name (NXDOMAIN) and a name without that type (NODATA)", async () => {
    expect(await lookup.txt("nothing.example.test")).toBeNull();
    expect(await lookup.cname("_redline-challenge.review.example.test")).toBeNull();
    server.add({ type: "A", name: "apex.example.test", value: "127.0.0.1" });
    expect(await lookup.cname("apex.example.test")).toBeNull();
  });

  it("follows a CNAME to what the table holds at its target", async () => {
    server.add({ type: "CNAME", name: "alias.example.test", value: "apex.example.test" });
    server.add({ type: "TXT", name: "apex.example.test", value: "at the target" });
    expect(await lookup.txt("alias.example.test")).toEqual([["at the target"]]);
  });

  it("keeps a CNAME alone at its name, and removes records", async () => {
    expect(() => server.add({ type: "TXT", name: "review.example.test", value: "beside a CNAME" })).toThrow(
      DnsRecordConflict,
    );
    expect(() => server.add({ type: "CNAME", name: "apex.example.test", value: "x.example.test" })).toThrow(
      DnsRecordConflict,
    );
    const again = server.add({ type: "CNAME", name: "review.example.test", value: "app.redline.test" });
    const record = server.list().find((entry) => entry.name === "review.example.test")!;
    expect(again.id).toBe(record.id);
    expect(server.remove(record.id)).toBe(true);
    expect(server.remove(record.id)).toBe(false);
    expect(await lookup.cname("review.example.test")).toBeNull();
  });

  it("reports a server that does not answer as a failure, not as a missing record", async () => {
    const silent = await startDevDnsServer();
    const address = silent.address;
    await silent.close();
    const nowhere = createDnsLookup([address], { timeoutMs: 200, tries: 1 });
    await expect(nowhere.txt("review.example.test")).rejects.toBeInstanceOf(DnsLookupError);
  });
});
