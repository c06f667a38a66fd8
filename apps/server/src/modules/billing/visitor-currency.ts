/**
 * The visitor's currency (SPEC §2: `/upgrade` shows prices "in the visitor's currency where supported"):
 * the one asked for, else that of the country the reverse proxy or CDN names in GEO_COUNTRY_HEADER (read
 * only behind a trusted proxy, env.ts), else that of the region of the browser's preferred language
 * (Accept-Language `de-CH` → CH → CHF), else USD. A country whose currency is not supported pays in USD.
 */
import { BASE_CURRENCY, type Currency, type CurrencySource, currencyFor } from "@redline/shared";
import type { FastifyRequest } from "fastify";
import { countryEntries } from "../plans/countries.ts";

export interface VisitorCurrency {
  currency: Currency;
  source: CurrencySource;
  country: string | null;
}

let known: Set<string> | undefined;
/** A country code of the dataset GET /api/countries serves ("XX" or Tor's "T1" from a CDN are not). */
function knownCountry(code: string | null | undefined): string | null {
  known ??= new Set(countryEntries().map((entry) => entry.countryCode));
  const upper = code?.trim().toUpperCase() ?? "";
  return known.has(upper) ? upper : null;
}

/**
 * The region of the most preferred language that names one: `fr-CH, en;q=0.8` → CH;
 * `zh-Hant-TW` → TW; `en, de-AT;q=0.5` → AT; `*`, `fr` or `es-419` alone → null.
 */
export function regionOfAcceptLanguage(header: string | undefined): string | null {
  if (!header) return null;
  const ranges = header
    .slice(0, 1000)
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/i.exec(param)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((range) => range.q > 0 && range.tag && range.tag !== "*")
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranges) {
    const region = tag
      .split("-")
      .slice(1)
      .find((subtag) => /^[A-Za-z]{2}$/.test(subtag));
    if (region) return region.toUpperCase();
  }
  return null;
}

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export function visitorCurrency(
  request: FastifyRequest,
  geoHeader: string | undefined,
  asked?: Currency,
): VisitorCurrency {
  if (asked) return { currency: asked, source: "query", country: null };
  const geo = geoHeader ? knownCountry(headerValue(request.headers[geoHeader])) : null;
  if (geo) return { currency: currencyFor(geo), source: "country", country: geo };
  const region = knownCountry(regionOfAcceptLanguage(headerValue(request.headers["accept-language"])));
  if (region) return { currency: currencyFor(region), source: "language", country: region };
  return { currency: BASE_CURRENCY, source: "default", country: null };
}
