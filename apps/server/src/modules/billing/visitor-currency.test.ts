import { currencyFor, supportedCurrency } from "@redline/shared";
import { describe, expect, it } from "vitest";
import { countryEntries } from "../plans/countries.ts";
import { regionOfAcceptLanguage } from "./visitor-currency.ts";

describe("the region of the browser's language", () => {
  it.each([
    ["de-CH,de;q=0.9,en;q=0.8", "CH"],
    ["fr-CH, fr;q=0.9, en;q=0.8", "CH"],
    ["en, de-AT;q=0.5", "AT"],
    ["ja-JP", "JP"],
    ["zh-Hant-TW,zh;q=0.8", "TW"],
    ["en-US;q=0.4, pt-BR;q=0.9", "BR"],
    ["de-de", "DE"],
    ["de-CH;q=0, en-GB", "GB"],
  ])("%s → %s", (header, region) => {
    expect(regionOfAcceptLanguage(header)).toBe(region);
  });

  it.each([["*"], ["fr"], ["es-419"], [""], [undefined], ["en;q=abc"], ["-;;,,"]])("%s → none", (header) => {
    expect(regionOfAcceptLanguage(header)).toBeNull();
  });
});

describe("currencyFor (packages/shared) against the countries dataset", () => {
  it("gives each country of GET /api/countries its currency when supported, else USD", () => {
    const wrong = countryEntries()
      .map((entry) => ({
        country: entry.countryCode,
        expected: supportedCurrency(entry.currencyCode) ?? "USD",
        actual: currencyFor(entry.countryCode),
      }))
      .filter(({ expected, actual }) => expected !== actual);
    expect(wrong).toEqual([]);
  });
});
