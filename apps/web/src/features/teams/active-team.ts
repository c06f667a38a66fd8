/**
 * Which team `/team` shows (SPEC §5, §9): the team saved for this product in local storage when the user
 * still belongs to it, else the product's first team. Remembered per product.
 */
import type { Product, Team } from "@redline/shared";

const storageKey = (product: Product) => `redline.activeTeam.${product}`;

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
}
