import type { Product } from "@redline/shared";

/**
 * The product variant this tab shows (SPEC §1: `web`, or `browse` on a bug-tracking host). The header has
 * no product switcher yet and SPEC §1 does not name the host prefix, so the app is the web product — as
 * /projects and the profile menu already assume (`me.plans.web`). The one place to change when a switcher
 * or a browse host arrives.
 */
export function useProduct(): Product {
  return "web";
}
