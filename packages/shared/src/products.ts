/**
 * Which product a tab shows (SPEC §1): `browse` on a host whose name starts with the bug-tracking prefix,
 * with or without a hyphen (`bugs.example.com`, `bugs-example.com`); elsewhere the header's product
 * switcher decides. Pure, so the web and its tests read one rule.
 */
import { PRODUCTS, type Product } from "./limits.ts";

export const DEFAULT_BROWSE_HOST_PREFIX = "bugs";

/** `browse` when the host carries the prefix, else null (the host does not decide). */
export function productForHost(
  hostname: string,
  prefix: string = DEFAULT_BROWSE_HOST_PREFIX,
): Product | null {
  const host = hostname.toLowerCase();
  const p = prefix.toLowerCase();
  if (p === "") return null;
  return host.startsWith(`${p}.`) || host.startsWith(`${p}-`) ? "browse" : null;
}

export function isProduct(value: unknown): value is Product {
  return typeof value === "string" && (PRODUCTS as readonly string[]).includes(value);
}

/** The header's product switcher (SPEC §1): two products, one page elsewhere, one in the pipeline. */
export const PRODUCT_SWITCHER = [
  { id: "web", label: "Website feedback" },
  { id: "browse", label: "Bug tracking" },
  { id: "customer-feedback", label: "Customer feedback", note: "Coming soon" },
  { id: "video", label: "Video review", note: "In the pipeline" },
] as const;

/** Where "Customer feedback — coming soon" leads: the project's page about it (an external page). */
export const CUSTOMER_FEEDBACK_URL = "https://github.com/redline-review/redline/discussions";
