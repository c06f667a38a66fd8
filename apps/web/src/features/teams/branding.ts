/**
 * A team's branding in the document (SPEC §2 favicon and header logo, §3 theme, §4 when it applies, §9
 * hover 10% darker): the theme overrides the accent's design tokens (tokens.css) on the root element —
 * nothing else — and the favicon becomes the team's icon. The active team's branding applies app-wide
 * through `useTeamBranding`; custom-domain hosts call `applyBranding` for the host's team.
 */
import { appliedTheme, darken, HOVER_DARKEN, type TeamTheme, teamDisplayName } from "@redline/shared";
import { useEffect } from "react";
import { useHostTeam } from "../../lib/host-title.ts";
import { useProduct } from "../../lib/use-product.ts";
import { useActiveTeam } from "./use-active-team.ts";

/** The tokens a theme sets: primary actions, their hover, the accent's soft tint, the text on the accent. */
export const BRANDING_TOKENS = [
  "--color-accent",
  "--color-accent-hover",
  "--color-accent-soft",
  "--color-on-accent",
] as const;
export type BrandingToken = (typeof BRANDING_TOKENS)[number];

/** The shipped favicon (index.html), restored when no branding applies. */
export const DEFAULT_FAVICON = { href: "/favicon.svg", type: "image/svg+xml" } as const;

/** What the theme sets each token to (its colours are `#rrggbb`, checked by the API). */
export function brandingTokens(theme: TeamTheme): Record<BrandingToken, string> {
  return {
    "--color-accent": theme.primaryColor,
    "--color-accent-hover": darken(theme.primaryColor, HOVER_DARKEN),
    "--color-accent-soft": theme.secondaryColor,
    "--color-on-accent": theme.textHighlightColor,
  };
}

/** The favicon a theme shows: its icon, else the shipped one. */
export function faviconFor(theme: TeamTheme | null): { href: string; type: string } {
  return theme?.iconURL ? { href: theme.iconURL, type: "image/png" } : DEFAULT_FAVICON;
}

/** The picture the header shows instead of the shipped logo (SPEC §2: the team's logo, else its icon). */
export function headerLogoFor(theme: TeamTheme | null): string | null {
  return theme?.logoURL || theme?.iconURL || null;
}

/**
 * Applies a team's branding to the document (design tokens, favicon), or the shipped defaults for null.
 * Owned by the branding work; the custom-domain work calls it for the host's team.
 */
export function applyBranding(theme: TeamTheme | null): void {
  const root = document.documentElement;
  if (theme)
    for (const [token, value] of Object.entries(brandingTokens(theme))) root.style.setProperty(token, value);
  else for (const token of BRANDING_TOKENS) root.style.removeProperty(token);
  const { href, type } = faviconFor(theme);
  let link = document.head.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  link.type = type;
}

export interface TeamBrand {
  /** The team's name, the header logo's text alternative. */
  name: string;
  /** The header's picture, null to keep the shipped logo. */
  logoURL: string | null;
  theme: TeamTheme;
}

/**
 * The branding the app shell shows: on a team's custom domain, that team's (whoever signs in); else the
 * active team's (the team /team shows for this product: saved in local storage, else the first). Applied
 * to the document while it applies and taken down when it stops applying or the shell unmounts — back to
 * the host team's branding (custom-host.ts applies it from the start, sign-in pages included) or none.
 */
export function useTeamBranding(): TeamBrand | null {
  const hostTeam = useHostTeam();
  const active = useActiveTeam(useProduct());
  const brand = hostTeam
    ? hostTeam.theme
      ? { name: hostTeam.name, theme: hostTeam.theme }
      : null
    : active && appliedTheme(active)
      ? { name: teamDisplayName(active), theme: appliedTheme(active)! }
      : null;
  const key = brand ? JSON.stringify(brand.theme) : null;
  const hostTheme = hostTeam?.theme ?? null;

  useEffect(() => {
    if (!key) return;
    applyBranding(JSON.parse(key) as TeamTheme);
    return () => applyBranding(hostTheme);
  }, [key, hostTheme]);

  return brand ? { ...brand, logoURL: headerLogoFor(brand.theme) } : null;
}
