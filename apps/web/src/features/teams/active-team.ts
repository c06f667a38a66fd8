/**
 * Which team `/team` shows (SPEC §5, §9): the team saved for this product in local storage when the user
 * still belongs to it, else the product's first team. Remembered per product.
 */
import type { Product, Team } from "@redline/shared";

const storageKey = (product: Product) => `redline.activeTeam.${product}`;
/** Told in this tab when another team is saved (the `storage` event tells only other tabs). */
const CHANGE_EVENT = "redline:active-team";

export function pickTeam<T extends Pick<Team, "id" | "product">>(
  teams: readonly T[],
  product: Product,
  savedId: string | null,
): T | null {
  const ofProduct = teams.filter((team) => team.product === product);
  return ofProduct.find((team) => team.id === savedId) ?? ofProduct[0] ?? null;
}

export function savedTeamId(product: Product): string | null {
  try {
    return localStorage.getItem(storageKey(product));
  } catch {
    return null;
  }
}

export function saveTeamId(product: Product, teamId: string): void {
  try {
    localStorage.setItem(storageKey(product), teamId);
  } catch {
    // Private mode or a full store: the first team is shown next time.
  }
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** Calls `listener` when the saved team changes, in this tab or another (for useSyncExternalStore). */
export function subscribeSavedTeam(listener: () => void): () => void {
  window.addEventListener(CHANGE_EVENT, listener);
  window.addEventListener("storage", listener);
  return () => {
    window.removeEventListener(CHANGE_EVENT, listener);
    window.removeEventListener("storage", listener);
  };
}
