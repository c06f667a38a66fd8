import { describe, expect, it, vi } from "vitest";
import { loadConfig } from "./env.ts";

describe("environment", () => {
  it("runs on embedded defaults with nothing set", () => {
    const config = loadConfig({ DATA_DIR: "/tmp/redline-env-test" });
    expect(config).toMatchObject({
      port: 3000,
      appUrl: "http://localhost:3000",
      databaseUrl: undefined,
      pgliteDir: "/tmp/redline-env-test/pglite",
      smtpUrl: undefined,
      google: { embedded: true, baseUrl: null },
      isProduction: false,
    });
    expect(config.authSecret.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: "/tmp/redline-env-test" }).authSecret).toBe(config.authSecret);
  });

  it("fails fast, naming the variable", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(/AUTH_SECRET: required in production/);
    expect(() => loadConfig({ AUTH_SECRET: "short" })).toThrow(/AUTH_SECRET/);
  });

  it("signs in with Google given both id and secret, else with the embedded stand-in outside production", () => {
    const dir = { DATA_DIR: "/tmp/redline-env-test" };
    expect(loadConfig({ ...dir, GOOGLE_CLIENT_ID: "id" }).google?.embedded).toBe(true);
    expect(loadConfig({ ...dir, GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s" }).google).toEqual({
      clientId: "id",
      clientSecret: "s",
      embedded: false,
      baseUrl: null,
    });
    expect(
      loadConfig({
        ...dir,
        GOOGLE_CLIENT_ID: "id",
        GOOGLE_CLIENT_SECRET: "s",
        GOOGLE_OAUTH_BASE_URL: "http://oauth.test/",
      }).google?.baseUrl,
    ).toBe("http://oauth.test");
    const production = { ...dir, NODE_ENV: "production", AUTH_SECRET: "x".repeat(32) };
    expect(loadConfig(production).google).toBeUndefined();
  });
});

describe("rate limits", () => {
  it("may be turned off outside production only", () => {
    const base = { DATA_DIR: "/tmp/redline-env-test", RATE_LIMIT_ENABLED: "false" };
    expect(loadConfig(base).rateLimitEnabled).toBe(false);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const production = loadConfig({ ...base, NODE_ENV: "production", AUTH_SECRET: "x".repeat(32) });
    expect(production.rateLimitEnabled).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/RATE_LIMIT_ENABLED=false is ignored/));
    warn.mockRestore();
  });
});

describe("the visitor's country header", () => {
  it("is read only behind a trusted proxy, by its lower-case name", () => {
    const base = { DATA_DIR: "/tmp/redline-env-test", GEO_COUNTRY_HEADER: "CF-IPCountry" };
    expect(() => loadConfig(base)).toThrow(/GEO_COUNTRY_HEADER: read only behind a trusted proxy/);
    expect(loadConfig({ ...base, TRUST_PROXY: "true" }).geoCountryHeader).toBe("cf-ipcountry");
    expect(loadConfig({ DATA_DIR: "/tmp/redline-env-test" }).geoCountryHeader).toBeUndefined();
    expect(() => loadConfig({ ...base, TRUST_PROXY: "true", GEO_COUNTRY_HEADER: "a b" })).toThrow(
      /GEO_COUNTRY_HEADER/,
    );
  });
});

describe("custom domains' DNS", () => {
  const base = { DATA_DIR: "/tmp/redline-env-test" };
  it("runs the embedded DNS server outside production unless DNS servers are named", () => {
    expect(loadConfig(base).customDomains).toEqual({
      target: "localhost",
      dnsServers: null,
      embeddedDns: true,
      embeddedDnsPort: 0,
    });
    expect(
      loadConfig({ ...base, DNS_SERVERS: "127.0.0.1:5300, [::1]:53,9.9.9.9" }).customDomains,
    ).toMatchObject({
      dnsServers: ["127.0.0.1:5300", "[::1]:53", "9.9.9.9"],
      embeddedDns: false,
    });
    const production = loadConfig({ ...base, NODE_ENV: "production", AUTH_SECRET: "x".repeat(32) });
    expect(production.customDomains).toMatchObject({ dnsServers: null, embeddedDns: false });
  });

  it("points CNAMEs at the app's host unless told another", () => {
    expect(loadConfig({ ...base, APP_URL: "https://app.redline.example" }).customDomains.target).toBe(
      "app.redline.example",
    );
    expect(
      loadConfig({ ...base, CUSTOM_DOMAIN_TARGET: "Domains.Redline.Example" }).customDomains.target,
    ).toBe("domains.redline.example");
  });

  it("refuses DNS servers that are not addresses", () => {
    expect(() => loadConfig({ ...base, DNS_SERVERS: "dns.example" })).toThrow(/DNS_SERVERS/);
    expect(() => loadConfig({ ...base, DNS_SERVERS: "1.1.1.1:99999" })).toThrow(/DNS_SERVERS/);
    expect(() => loadConfig({ ...base, CUSTOM_DOMAIN_TARGET: "https://x" })).toThrow(/CUSTOM_DOMAIN_TARGET/);
  });
});

describe("Asana", () => {
  const dir = { DATA_DIR: "/tmp/redline-env-test" };
  it("is real with its client id and secret, else the embedded stand-in outside production, else none", () => {
    expect(() => loadConfig({ ...dir, ASANA_CLIENT_ID: "1" })).toThrow(
      /ASANA_CLIENT_SECRET: required with ASANA_CLIENT_ID/,
    );
    expect(loadConfig({ ...dir, ASANA_CLIENT_ID: "1", ASANA_CLIENT_SECRET: "s" }).trackers.asana).toEqual({
      embedded: false,
      clientId: "1",
      clientSecret: "s",
      apiUrl: "https://app.asana.com/api/1.0",
      authorizeUrl: "https://app.asana.com/-/oauth_authorize",
    });
    expect(loadConfig(dir).trackers.asana).toMatchObject({ embedded: true, apiUrl: null });
    const production = { NODE_ENV: "production", AUTH_SECRET: "s".repeat(40), APP_URL: "https://r.example" };
    expect(loadConfig(production).trackers.asana).toBeNull();
  });
});

describe("Jira", () => {
  const dir = { DATA_DIR: "/tmp/redline-env-test" };
  it("is real with its client id and secret (Atlassian's hosts, or others), else the embedded stand-in, else none", () => {
    expect(() => loadConfig({ ...dir, JIRA_CLIENT_ID: "1" })).toThrow(
      /JIRA_CLIENT_SECRET: required with JIRA_CLIENT_ID/,
    );
    expect(loadConfig({ ...dir, JIRA_CLIENT_ID: "1", JIRA_CLIENT_SECRET: "s" }).trackers.jira).toEqual({
      embedded: false,
      clientId: "1",
      clientSecret: "s",
      apiUrl: "https://api.atlassian.com",
      authorizeUrl: "https://auth.atlassian.com/authorize",
      tokenUrl: "https://auth.atlassian.com/oauth/token",
    });
    expect(
      loadConfig({
        ...dir,
        JIRA_CLIENT_ID: "1",
        JIRA_CLIENT_SECRET: "s",
        JIRA_API_URL: "https://jira-gw.example/",
        JIRA_AUTHORIZE_URL: "https://auth.example/authorize",
        JIRA_TOKEN_URL: "https://auth.example/oauth/token",
      }).trackers.jira,
    ).toMatchObject({
      apiUrl: "https://jira-gw.example",
      authorizeUrl: "https://auth.example/authorize",
      tokenUrl: "https://auth.example/oauth/token",
    });
    expect(loadConfig(dir).trackers.jira).toMatchObject({ embedded: true, apiUrl: null });
    const production = { NODE_ENV: "production", AUTH_SECRET: "s".repeat(40), APP_URL: "https://r.example" };
    expect(loadConfig(production).trackers.jira).toBeNull();
  });
});

describe.each([
  ["trello", "TRELLO_API_KEY", "TRELLO_API_SECRET", "https://api.trello.com"],
  ["clickup", "CLICKUP_CLIENT_ID", "CLICKUP_CLIENT_SECRET", "https://api.clickup.com"],
  ["github", "GITHUB_CLIENT_ID", "GITHUB_CLIENT_SECRET", "https://api.github.com"],
  ["asana", "ASANA_CLIENT_ID", "ASANA_CLIENT_SECRET", "https://app.asana.com/api/1.0"],
  ["jira", "JIRA_CLIENT_ID", "JIRA_CLIENT_SECRET", "https://api.atlassian.com"],
] as const)("the %s tracker", (type, id, secret, apiUrl) => {
  const dir = { DATA_DIR: "/tmp/redline-env-test" };
  it("is real with both keys (its API base configurable), else its stand-in outside production, else none", () => {
    expect(() => loadConfig({ ...dir, [id]: "1" })).toThrow(`${secret}: required with ${id}`);
    expect(loadConfig({ ...dir, [id]: "1", [secret]: "s" }).trackers[type]).toMatchObject({
      embedded: false,
      clientId: "1",
      clientSecret: "s",
      apiUrl,
    });
    const prefix = id.split("_")[0];
    expect(
      loadConfig({ ...dir, [id]: "1", [secret]: "s", [`${prefix}_API_URL`]: "https://gw.example/" }).trackers[
        type
      ]?.apiUrl,
    ).toBe("https://gw.example");
    expect(loadConfig(dir).trackers[type]).toMatchObject({
      embedded: true,
      clientId: `redline-embedded-${type}`,
      apiUrl: null,
    });
    const production = { NODE_ENV: "production", AUTH_SECRET: "s".repeat(40), APP_URL: "https://r.example" };
    expect(loadConfig(production).trackers[type]).toBeNull();
  });
});
