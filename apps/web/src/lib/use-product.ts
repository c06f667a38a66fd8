import type { Product, PublicConfig } from "@redline/shared";
import { useQuery } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { api } from "./api.ts";
import { chosenProduct, productOfTab, subscribeProduct } from "./product.ts";

/** GET /api/config, shared with the sign-in screens (same key): the host prefix and the products' hosts. */
export function usePublicConfig() {
  return useQuery({
    queryKey: ["api", "config"],
    queryFn: () => api<PublicConfig>("/api/config"),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * The product variant this tab shows (SPEC §1: `web`, or `browse` on a bug-tracking host or when chosen
 * in the header's switcher). Projects lists, limits, plans and teams follow it.
 */
export function useProduct(): Product {
  const { data: config } = usePublicConfig();
  const chosen = useSyncExternalStore(subscribeProduct, chosenProduct);
  return productOfTab(window.location.hostname, config?.products?.browseHostPrefix, chosen);
}

/** Whether the host decides the product (then the switcher links to the other product's host). */
export function useHostDecidesProduct(): boolean {
  const { data: config } = usePublicConfig();
  return productOfTab(window.location.hostname, config?.products?.browseHostPrefix, "web") === "browse";
}
