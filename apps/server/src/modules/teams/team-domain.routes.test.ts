/**
 * Custom domains through the API against the embedded DNS server (issue #14): set, refuse (invalid,
 * own host, taken, not allowed, not in the plan), check pending → verified → active (and failed), remove;
 * the reverse proxy's `ask`; GET /api/host by Host header; the /dev/dns API that edits the zone.
 */
import http from "node:http";
import { TEAM_DOMAIN_MESSAGES } from "@redline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { teams, users } from "../../db/schema/index.ts";
import { loadConfig } from "../../env.ts";
import { createDnsLookup } from "../../integrations/dns/index.ts";
import { ApiClient } from "../../testing/http-client.ts";
import { expectRefused, type Person, signUpPerson } from "../../testing/people.ts";
import { openSocket } from "../../testing/realtime-socket.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";
import { recheckDomains } from "./team-domain.recheck.ts";

let counter = 0;
const uniqueDomain = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}.example.test`;
const TARGET = "app.redline.test";

/** GET `path` with this Host header (fetch may not set Host; node:http may). */
function getWithHost(baseUrl: string, path: string, host: string): Promise<{ status: number; body: any }> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    http
      .get(
        { hostname: url.hostname, port: url.port, path: url.pathname + url.search, headers: { host } },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            text += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
        },
      )
      .on("error", reject);
  });
}

describe.each(routeDrivers())("team custom domains (%s)", (driver) => {
  let t: TestApp;
  let owner: Person;
  let zone: ApiClient;

  const person = (name: string) => signUpPerson(t, name);
  const newTeam = async (who = owner) =>
    (await who.client.post("/api/teams", { product: "web", name: "Acme Studio" })).body.data.id as string;
  const domainPath = (teamId: string) => `/api/teams/${teamId}/domain`;
  const addRecord = async (type: string, name: string, value: string) => {
    const added = await zone.post("/dev/dns/records", { type, name, value });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    return added.body.data.id as string;
  };
  const ask = (domain: string) => fetch(`${t.url}/api/domains/ask?domain=${encodeURIComponent(domain)}`);
  const refused = (call: () => Promise<{ status: number; body: any }>, status: number, code?: string) =>
    expectRefused(t, call, status, code);

  beforeAll(async () => {
    const defaults = loadConfig({ DATA_DIR: "/tmp/redline-domain-test" }).customDomains;
    t = await startTestApp({ driver, config: { customDomains: { ...defaults, target: TARGET } } });
    owner = await person("domain-owner");
    zone = new ApiClient(t.url);
  });
  afterAll(() => t.close());

  it("sets a domain (pending, with its CNAME and TXT records), tells the team, and reads it back", async () => {
    const teamId = await newTeam();
    expect((await owner.client.get(domainPath(teamId))).body).toEqual({ data: null });
    const socket = await openSocket(t, owner.client);
    await socket.next((m) => m.type === "ready");
    const domain = uniqueDomain("review");
    const set = await owner.client.put(domainPath(teamId), { domain: ` ${domain.toUpperCase()}. ` });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const token = set.body.data.records[1].value.replace("redline-verification=", "");
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(set.body).toEqual({
      data: {
        domain,
        status: "pending",
        checkedAt: null,
        records: [
          { type: "CNAME", name: domain, value: TARGET },
          { type: "TXT", name: `_redline-challenge.${domain}`, value: `redline-verification=${token}` },
        ],
      },
      message: TEAM_DOMAIN_MESSAGES.saved,
    });
    await socket.next(
      (m) => m.type === "event" && m.event.type === "teams.changed" && m.event.teamId === teamId,
    );
    socket.socket.close();
    expect((await owner.client.get(domainPath(teamId))).body.data).toEqual(set.body.data);
    expect((await owner.client.get(`/api/teams/${teamId}`)).body.data.domain).toBe(domain);

    // The same domain again changes nothing; another one starts over with a new token.
    expect((await owner.client.put(domainPath(teamId), { domain })).body.data).toEqual(set.body.data);
    const other = uniqueDomain("other");
    const changed = await owner.client.put(domainPath(teamId), { domain: other });
    expect(changed.body.data).toMatchObject({ domain: other, status: "pending" });
    expect(changed.body.data.records[1].value).not.toBe(`redline-verification=${token}`);
  });

  it("refuses an invalid domain, one of the instance's own hosts, and a domain another team has — changing nothing", async () => {
    const teamId = await newTeam();
    for (const domain of [
      "https://x.example.test",
      "x.example.test:8080",
      "x.example.test/p",
      "nodots",
      "1.2.3.4",
    ])
      await refused(() => owner.client.put(domainPath(teamId), { domain }), 400, "validation");
    await refused(() => owner.client.put(domainPath(teamId), { domain: "a.example.test", x: 1 }), 400);
    for (const domain of [TARGET, "App.Redline.Test", "redline.localhost"])
      await refused(() => owner.client.put(domainPath(teamId), { domain }), 409, "domain-own-host");

    const domain = uniqueDomain("taken");
    expect((await owner.client.put(domainPath(teamId), { domain })).status).toBe(200);
    const rival = await person("rival");
    const rivalTeam = await newTeam(rival);
    const taken = await refused(
      () => rival.client.put(domainPath(rivalTeam), { domain }),
      409,
      "domain-taken",
    );
    expect(taken.body.message).toBe(TEAM_DOMAIN_MESSAGES.taken);
    // Once removed, the domain is free again.
    expect((await owner.client.delete(domainPath(teamId))).body).toEqual({
      data: null,
      message: TEAM_DOMAIN_MESSAGES.removed,
    });
    expect((await rival.client.put(domainPath(rivalTeam), { domain })).status).toBe(200);
  });

  it("lets the owner and managers change the domain; members and collaborators get 403, outsiders 404", async () => {
    const teamId = await newTeam();
    const domain = uniqueDomain("roles");
    const [manager, member, collaborator, outsider] = [
      await person("manager"),
      await person("member"),
      await person("collaborator"),
      await person("outsider"),
    ];
    for (const [who, access] of [
      [manager, "manager"],
      [member, "member"],
      [collaborator, "collaborator"],
    ] as const)
      expect(
        (await owner.client.post(`/api/teams/${teamId}/members`, { email: who.address, access })).status,
      ).toBe(201);
    expect((await manager.client.put(domainPath(teamId), { domain })).status).toBe(200);
    for (const [who, status] of [
      [member, 403],
      [collaborator, 403],
      [outsider, 404],
    ] as const) {
      await refused(() => who.client.get(domainPath(teamId)), status);
      await refused(() => who.client.put(domainPath(teamId), { domain: uniqueDomain("mine") }), status);
      await refused(() => who.client.post(`${domainPath(teamId)}/check`), status);
      await refused(() => who.client.delete(domainPath(teamId)), status);
    }
    await refused(() => new ApiClient(t.url).put(domainPath(teamId), { domain: uniqueDomain("anon") }), 401);
    // A disabled team's domain waits until it is enabled again.
    await t.ctx.database.db.update(teams).set({ isDisabled: true }).where(eq(teams.id, teamId));
    await refused(() => owner.client.delete(domainPath(teamId)), 403, "team-disabled");
    await t.ctx.database.db.update(teams).set({ isDisabled: false }).where(eq(teams.id, teamId));
    expect((await manager.client.delete(domainPath(teamId))).status).toBe(200);
  });

  it("checks DNS: pending without records, verified with the TXT token, active with the CNAME, failed on a wrong answer", async () => {
    const teamId = await newTeam();
    await refused(() => owner.client.post(`${domainPath(teamId)}/check`), 409, "domain-none");
    const domain = uniqueDomain("dns");
    const [cname, txt] = (await owner.client.put(domainPath(teamId), { domain })).body.data.records;
    const check = () => owner.client.post(`${domainPath(teamId)}/check`);

    const pending = await check();
    expect(pending.body).toMatchObject({
      data: { status: "pending", checkedAt: expect.any(String) },
      message: TEAM_DOMAIN_MESSAGES.checked.pending,
    });
    expect((await ask(domain)).status).toBe(404);

    const txtId = await addRecord("TXT", txt.name, txt.value);
    expect((await check()).body).toMatchObject({
      data: { status: "verified" },
      message: TEAM_DOMAIN_MESSAGES.checked.verified,
    });
    // A proxy may issue its certificate from now on: the CNAME may already reach it before our resolver sees it.
    const answer = await ask(domain.toUpperCase());
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ data: { domain } });

    await addRecord("CNAME", cname.name, `${cname.value.toUpperCase()}.`);
    expect((await check()).body).toMatchObject({
      data: { status: "active" },
      message: TEAM_DOMAIN_MESSAGES.checked.active,
    });
    expect((await ask(domain)).status).toBe(200);

    // The TXT record replaced by another token: failed, and no certificate.
    expect((await zone.delete(`/dev/dns/records/${txtId}`)).status).toBe(200);
    await addRecord("TXT", txt.name, "redline-verification=someone-else");
    expect((await check()).body).toMatchObject({
      data: { status: "failed" },
      message: TEAM_DOMAIN_MESSAGES.checked.failed,
    });
    expect((await ask(domain)).status).toBe(404);
  });

  it("re-checks domains in the background: those due, oldest first, telling the team when the status moves", async () => {
    const teamId = await newTeam();
    const domain = uniqueDomain("recheck");
    const [, txt] = (await owner.client.put(domainPath(teamId), { domain })).body.data.records;
    await addRecord("TXT", txt.name, txt.value);
    const server = (await zone.get("/dev/dns/records")).body.data.server as string;
    const lookup = createDnsLookup([server], { timeoutMs: 1000, tries: 1 });
    const statusOf = async () =>
      (await t.ctx.database.db.select().from(teams).where(eq(teams.id, teamId)))[0]!;

    expect(await recheckDomains(t.ctx, lookup)).toBeGreaterThanOrEqual(1);
    expect((await statusOf()).domainStatus).toBe("verified");
    const checkedAt = (await statusOf()).domainCheckedAt!;
    // Checked just now: not due again until the interval has passed.
    await recheckDomains(t.ctx, lookup);
    expect((await statusOf()).domainCheckedAt).toEqual(checkedAt);
    const later = new Date(checkedAt.getTime() + 11 * 60 * 1000);
    await recheckDomains(t.ctx, lookup, later);
    expect((await statusOf()).domainCheckedAt).toEqual(later);
  });

  it("answers the proxy's ask only for proven domains of enabled teams whose owner's plan has custom domains", async () => {
    const teamId = await newTeam();
    const domain = uniqueDomain("ask");
    await owner.client.put(domainPath(teamId), { domain });
    await t.ctx.database.db.update(teams).set({ domainStatus: "active" }).where(eq(teams.id, teamId));
    expect((await ask(domain)).status).toBe(200);
    for (const unknown of ["", "nobody.example.test", "not a domain", TARGET, "x".repeat(300)])
      expect((await ask(unknown)).status, unknown).toBe(404);
    expect((await fetch(`${t.url}/api/domains/ask`)).status).toBe(404);

    await t.ctx.database.db.update(teams).set({ isDisabled: true }).where(eq(teams.id, teamId));
    expect((await ask(domain)).status).toBe(404);
    await t.ctx.database.db.update(teams).set({ isDisabled: false }).where(eq(teams.id, teamId));

    t.ctx.config.plansEnabled = true;
    try {
      expect((await ask(domain)).status).toBe(404);
      await t.ctx.database.db.update(users).set({ privilege: "team" }).where(eq(users.id, owner.uid));
      expect((await ask(domain)).status).toBe(200);
    } finally {
      t.ctx.config.plansEnabled = false;
      await t.ctx.database.db.update(users).set({ privilege: null }).where(eq(users.id, owner.uid));
    }
  });

  it("refuses setting and checking with 402 when the team owner's plan has no custom domain; removing still works", async () => {
    const free = await person("free-owner");
    const teamId = await newTeam(free);
    const domain = uniqueDomain("free");
    expect((await free.client.put(domainPath(teamId), { domain })).status).toBe(200);
    t.ctx.config.plansEnabled = true;
    try {
      const refusedSet = await refused(
        () => free.client.put(domainPath(teamId), { domain: uniqueDomain("paid") }),
        402,
        "custom-domain",
      );
      expect(refusedSet.body).toMatchObject({
        message: TEAM_DOMAIN_MESSAGES.planRequired,
        limit: { kind: "feature", product: "web", limit: 0 },
      });
      await refused(() => free.client.post(`${domainPath(teamId)}/check`), 402, "custom-domain");
      // With the Team plan, the owner (whose plan decides for the team) may check again.
      await t.ctx.database.db.update(users).set({ privilege: "team" }).where(eq(users.id, free.uid));
      expect((await free.client.post(`${domainPath(teamId)}/check`)).status).toBe(200);
      await t.ctx.database.db.update(users).set({ privilege: null }).where(eq(users.id, free.uid));
      expect((await free.client.delete(domainPath(teamId))).status).toBe(200);
    } finally {
      t.ctx.config.plansEnabled = false;
    }
  });

  it("tells the SPA whose host it runs on: the instance's own, a team's proven domain (its name as the title), or a stranger's", async () => {
    expect((await getWithHost(t.url, "/api/host", new URL(t.url).host)).body).toEqual({
      data: { host: "127.0.0.1", isOwnHost: true, team: null, title: null },
    });
    expect((await getWithHost(t.url, "/api/host", `${TARGET}:443`)).body.data.isOwnHost).toBe(true);

    const teamId = await newTeam();
    const domain = uniqueDomain("host");
    await owner.client.put(domainPath(teamId), { domain });
    // Pending: not the team's yet, so the host name is the title.
    expect((await getWithHost(t.url, "/api/host", domain)).body).toEqual({
      data: { host: domain, isOwnHost: false, team: null, title: domain },
    });
    await t.ctx.database.db.update(teams).set({ domainStatus: "verified" }).where(eq(teams.id, teamId));
    const found = await getWithHost(t.url, "/api/host", `${domain.toUpperCase()}:8443`);
    expect(found.body).toEqual({
      data: {
        host: domain,
        isOwnHost: false,
        team: { name: "Acme Studio", theme: null },
        title: "Acme Studio",
      },
    });

    // Its theme goes along while its branding applies (SPEC §4).
    const theme = {
      primaryColor: "#0055ff",
      secondaryColor: "#e6eeff",
      textHighlightColor: "#ffffff",
      logoURL: null,
      iconURL: null,
    };
    await t.ctx.database.db.update(teams).set({ customBranding: true, theme }).where(eq(teams.id, teamId));
    expect((await getWithHost(t.url, "/api/host", domain)).body.data.team).toEqual({
      name: "Acme Studio",
      theme,
    });
    // A disabled team's domain serves it no more (as the proxy's ask says): the host name is the title.
    await t.ctx.database.db.update(teams).set({ isDisabled: true }).where(eq(teams.id, teamId));
    expect((await getWithHost(t.url, "/api/host", domain)).body.data).toMatchObject({
      team: null,
      title: domain,
    });
  });

  it("ends the team's paid features together when its owner's plan lapses: branding, domain, host lookup, the team as read", async () => {
    const paid = await person("lapsing-owner");
    const teamId = await newTeam(paid);
    const domain = uniqueDomain("lapse");
    await paid.client.put(domainPath(teamId), { domain });
    const theme = {
      primaryColor: "#0055ff",
      secondaryColor: "#e6eeff",
      textHighlightColor: "#ffffff",
      logoURL: null,
      iconURL: null,
    };
    const { db } = t.ctx.database;
    await db
      .update(teams)
      .set({ domainStatus: "active", customBranding: true, theme })
      .where(eq(teams.id, teamId));
    t.ctx.config.plansEnabled = true;
    try {
      await db.update(users).set({ privilege: "team" }).where(eq(users.id, paid.uid));
      expect((await paid.client.get(`/api/teams/${teamId}`)).body.data.plan).toEqual({
        isPaid: true,
        branding: true,
        customDomain: true,
      });
      expect((await getWithHost(t.url, "/api/host", domain)).body.data.team).toEqual({
        name: "Acme Studio",
        theme,
      });
      expect((await ask(domain)).status).toBe(200);

      // The Team plan lapses: every one of its features ends with it, for everyone.
      await db.update(users).set({ privilege: null }).where(eq(users.id, paid.uid));
      const [read] = (await paid.client.get("/api/teams?product=web")).body.data.filter(
        (team: { id: string }) => team.id === teamId,
      );
      expect(read.plan).toEqual({ isPaid: false, branding: false, customDomain: false });
      expect((await paid.client.get(`/api/teams/${teamId}`)).body.data.plan).toEqual(read.plan);
      expect((await getWithHost(t.url, "/api/host", domain)).body.data).toEqual({
        host: domain,
        isOwnHost: false,
        team: null,
        title: domain,
      });
      expect((await ask(domain)).status).toBe(404);
    } finally {
      t.ctx.config.plansEnabled = false;
    }
  });

  it("serves the embedded zone at /dev/dns: a page, JSON records, one-click records for a team's domain, same-origin writes", async () => {
    const teamId = await newTeam();
    const domain = uniqueDomain("dev");
    await owner.client.put(domainPath(teamId), { domain });
    const page = await fetch(`${t.url}/dev/dns`);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    const text = await page.text();
    expect(text).toContain(domain);
    expect(text).toContain(`/dev/dns/domains/${domain}`);

    const created = await zone.post(`/dev/dns/domains/${domain}`);
    expect(created.status).toBe(201);
    expect(created.body.data.map((record: { type: string }) => record.type)).toEqual(["CNAME", "TXT"]);
    const listed = (await zone.get("/dev/dns/records")).body.data;
    expect(listed.server).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(listed.records.filter((record: { name: string }) => record.name.endsWith(domain))).toHaveLength(2);
    expect((await owner.client.post(`${domainPath(teamId)}/check`)).body.data.status).toBe("active");

    expect((await zone.post("/dev/dns/domains/nobody.example.test")).status).toBe(404);
    expect(
      (await zone.post("/dev/dns/records", { type: "A", name: "a.example.test", value: "x" })).status,
    ).toBe(400);
    expect((await zone.post("/dev/dns/records", { type: "TXT", name: domain, value: "x" })).status).toBe(409);
    const crossSite = await zone.request(
      "POST",
      "/dev/dns/records",
      { type: "TXT", name: "x.example.test", value: "y" },
      {
        origin: "https://evil.example",
      },
    );
    expect(crossSite.status).toBe(403);
    expect((await zone.delete("/dev/dns/records/unknown")).status).toBe(404);
  });
});
