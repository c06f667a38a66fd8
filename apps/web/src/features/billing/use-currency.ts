/**
 * The currency prices show and checkouts charge in: the one the visitor chose on /upgrade (remembered in
 * local storage under `redline.currency`), else the one the server finds for them (GET
 * /api/billing/prices: the proxy's country, else the browser's language region, else USD). Should the
 * server not answer, prices show in US dollars — the catalog's own currency.
 */
import { BASE_CURRENCY, type BillingPrices, type Currency, supportedCurrency } from "@redline/shared";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { api } from "../../lib/api.ts";

export const CURRENCY_STORAGE_KEY = "redline.currency";
export const PRICES_KEY = ["api", "billing", "prices"] as const;

function readStoredCurrency(): Currency | null {
  try {
    return supportedCurrency(localStorage.getItem(CURRENCY_STORAGE_KEY));
  } catch {
    return null;
  }
}

/** GET /api/billing/prices: the visitor's currency, as the server finds it. */
export function useVisitorPrices(enabled = true) {
  return useQuery({
    queryKey: PRICES_KEY,
    queryFn: async ({ signal }) =>
      (await api<{ data: BillingPrices }>("/api/billing/prices", { signal })).data,
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useCurrency() {
  const [chosen, setChosen] = useState<Currency | null>(readStoredCurrency);
  const visitor = useVisitorPrices(chosen === null);
  const setCurrency = useCallback((next: Currency) => {
    setChosen(next);
    try {
      localStorage.setItem(CURRENCY_STORAGE_KEY, next);
    } catch {
      // Storage off (private mode, quota): the choice lasts for this page only.
    }
  }, []);
  return {
    currency: chosen ?? visitor.data?.currency ?? BASE_CURRENCY,
    /** Still asking the server for the visitor's currency (nothing chosen yet). */
    isPending: chosen === null && visitor.isPending,
    setCurrency,
  };
}
