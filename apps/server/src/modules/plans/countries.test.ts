import { describe, expect, it } from "vitest";
import { countryEntries } from "./countries.ts";

describe("country entries (SPEC §3)", () => {
  it("lists about 250 countries sorted by name, each with a two-letter code and a currency", () => {
    const entries = countryEntries();
    expect(entries.length).toBeGreaterThanOrEqual(240);
    expect(entries.length).toBeLessThanOrEqual(260);
    const names = entries.map((entry) => entry.countryName);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en")));
    for (const entry of entries) {
      expect(entry.countryCode).toMatch(/^[A-Z]{2}$/);
      expect(entry.currencyCode).toMatch(/^[A-Z]{3}$/);
    }
    expect(entries.find((entry) => entry.countryCode === "DE")).toEqual({
      countryCode: "DE",
      countryName: "Germany",
      currencyCode: "EUR",
    });
    expect(entries.find((entry) => entry.countryCode === "US")?.currencyCode).toBe("USD");
  });
});
