/**
 * SPEC §3 Country entries (~250, sorted by name): two-letter code, name and currency, taken from the
 * maintained `countries-list` dataset rather than typed by hand. A country's currency is its first
 * listed one (the US lists USD before USN).
 */
import type { CountryEntry } from "@redline/shared";
import { countries as dataset } from "countries-list";

let cached: CountryEntry[] | undefined;

export function countryEntries(): CountryEntry[] {
  cached ??= Object.entries(dataset)
    .map(([countryCode, country]) => ({
      countryCode,
      countryName: country.name,
      currencyCode: country.currency[0] ?? "USD",
    }))
    .sort((a, b) => a.countryName.localeCompare(b.countryName, "en"));
  return cached;
}
