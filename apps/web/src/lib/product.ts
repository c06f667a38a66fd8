/**
 * Which product this tab shows (SPEC §1): `browse` on a host that carries the bug-tracking prefix;
 * elsewhere the product chosen in the header's switcher (or by opening a project of the other product),
 * remembered in local storage; `web` by default.
 */
import { isProduct, type Product, productForHost } from "@redline/shared";

const STORAGE_KEY = "redline.product";
/** Told in this tab when the product is switched (the `storage` event tells only other tabs). */
const CHANGE_EVENT = "redline:product";

export function chosenProduct(): Product {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    return isProduct(saved) ? saved : "web";
  } catch {
    return "web";
  }
}

/** The product this tab shows: the host's when it decides, else the one chosen. */
export function productOfTab(
  hostname: string,
  browseHostPrefix: string | undefined,
  chosen: Product,
): Product {
  return productForHost(hostname, browseHostPrefix) ?? chosen;
}

export function chooseProduct(product: Product): void {
  if (chosenProduct() === product) return;
  try {
    localStorage.setItem(STORAGE_KEY, product);
  } catch {
    // Private mode or a full store: this tab follows the event below, the next one starts on web.
  }
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

export function subscribeProduct(listener: () => void): () => void {
  window.addEventListener(CHANGE_EVENT, listener);
  window.addEventListener("storage", listener);
  return () => {
    window.removeEventListener(CHANGE_EVENT, listener);
    window.removeEventListener("storage", listener);
  };
}

export interface ProductHosts {
  webUrl: string;
  browseUrl: string | null;
}

/**
 * What picking `product` in the switcher does: on a single-host install it is chosen in this tab; when
 * the products live on two hosts (BROWSE_URL), or this host decides by its prefix, it leads to the host
 * that serves it — or nowhere (null) when none other does.
 */
export function switchTarget(
  product: Product,
  here: { origin: string; hostDecides: boolean },
  hosts: ProductHosts,
): { kind: "choose" } | { kind: "navigate"; url: string } | null {
  const home = product === "web" ? hosts.webUrl : hosts.browseUrl;
  const twoHosts = hosts.browseUrl !== null && hosts.browseUrl !== hosts.webUrl;
  if (!twoHosts && !here.hostDecides) return { kind: "choose" };
  if (home === null || home === here.origin)
    return here.hostDecides && product === "browse" ? { kind: "choose" } : null;
  return { kind: "navigate", url: `${home}/projects` };
}
