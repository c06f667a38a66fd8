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

/**
 * What each product says of itself where no project is open yet: the signed-out pages' pitch and the empty
 * projects list (SPEC §1: website feedback reviews web pages, images and PDFs; bug tracking tracks bugs as
 * tickets in projects and lists).
 */
export const PRODUCT_TEXTS: Record<
  Product,
  { headline: string; points: readonly string[]; noProjects: string }
> = {
  web: {
    headline: "Review websites, images and PDFs together.",
    points: [
      "Pin comments to any element of a live page or spot on an image.",
      "Suggest visual edits, approve pages and keep every version.",
      "Share projects with teammates and clients in one link.",
    ],
    noProjects: "Create a project to start reviewing websites, images and PDFs.",
  },
  browse: {
    headline: "Track bugs as tickets, together.",
    points: [
      "Sort tickets into lists on one board, assign them and set due dates.",
      "Visitors report bugs from your site with a screenshot, the console and failed requests.",
      "Share projects with teammates and clients.",
    ],
    noProjects: "Create a project to start tracking bugs with lists and tickets.",
  },
};
