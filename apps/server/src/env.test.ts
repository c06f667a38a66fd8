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
      google: undefined,
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

  it("enables Google sign-in only with both id and secret", () => {
    expect(loadConfig({ DATA_DIR: "/tmp/redline-env-test", GOOGLE_CLIENT_ID: "id" }).google).toBeUndefined();
    expect(
      loadConfig({ DATA_DIR: "/tmp/redline-env-test", GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s" })
        .google,
    ).toEqual({ clientId: "id", clientSecret: "s" });
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
