/**
 * Team branding (SPEC §3 theme, §4 when it applies, §6 plan-gated, §9 hover 10% darker): the update
 * contract, the logo and icon limits, and the pure rules both sides use. A theme's colours override the
 * design tokens of the accent (primary actions) and nothing else.
 */
import { z } from "zod";
import { MAX_UPLOAD_BYTES } from "./constants.ts";
import { MESSAGES } from "./messages.ts";
import type { Team, TeamTheme } from "./teams.ts";

/** `#rrggbb`, the one colour form a theme stores (lower-case). */
export const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

/** The shipped theme: the tokens' accent, its soft tint and the text on it (apps/web tokens.css). */
export const DEFAULT_TEAM_THEME: TeamTheme = {
  primaryColor: "#e5383b",
  secondaryColor: "#fdecec",
  textHighlightColor: "#ffffff",
  logoURL: null,
  iconURL: null,
};

/** SPEC §9: the theme's hover colour is 10% darker than its primary colour. */
export const HOVER_DARKEN = 0.1;

/** The two pictures a team can brand with, each its own upload route. */
export const BRANDING_ASSETS = ["logo", "icon"] as const;
export type BrandingAsset = (typeof BRANDING_ASSETS)[number];

/** Logo and icon uploads: at most 5 MB, raster images recognised by their bytes (never SVG). */
export const BRANDING_MAX_BYTES = MAX_UPLOAD_BYTES;
export const BRANDING_IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;

export const TEAM_BRANDING_MESSAGES = {
  updated: "Branding updated.",
  logoUploaded: "Logo uploaded.",
  iconUploaded: "Icon uploaded.",
  logoRemoved: "Logo removed.",
  iconRemoved: "Icon removed.",
  invalidColour: "Use a colour in the form #rrggbb, e.g. #e5383b.",
  nothingToChange: "Send at least one branding setting to change.",
  notImage: "Upload a PNG, JPEG, WebP or GIF image.",
  tooLarge: MESSAGES.maxFileSize,
  planRequired:
    "Custom branding is not included in the team owner's plan. Upgrade to the Team plan to brand this team.",
  /** Beside the switch while the owner's plan has no branding (a lapsed plan: the theme is kept, not shown). */
  notInPlan:
    "Not in the team owner's plan: the theme is kept but not shown until the plan includes branding.",
} as const;

const colour = z
  .string()
  .regex(HEX_COLOUR, TEAM_BRANDING_MESSAGES.invalidColour)
  .transform((value) => value.toLowerCase());

/** PATCH /api/teams/{id}/branding: any of the switch and the three colours; the pictures have their own routes. */
export const teamBrandingUpdateSchema = z
  .object({
    customBranding: z.boolean().optional(),
    primaryColor: colour.optional(),
    secondaryColor: colour.optional(),
    textHighlightColor: colour.optional(),
  })
  .strict()
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: TEAM_BRANDING_MESSAGES.nothingToChange,
  });
export type TeamBrandingUpdate = z.infer<typeof teamBrandingUpdateSchema>;

/**
 * Whether an update needs the branding entitlement: adding or turning on branding does; turning it off
 * never does, so a team whose owner's plan lapsed can still take its branding down.
 */
export function brandingUpdateNeedsPlan(update: TeamBrandingUpdate): boolean {
  return (
    update.customBranding === true ||
    update.primaryColor !== undefined ||
    update.secondaryColor !== undefined ||
    update.textHighlightColor !== undefined
  );
}

/** A theme with nothing set: none at all, or only empty values. */
export function isThemeEmpty(theme: TeamTheme | null | undefined): boolean {
  if (!theme) return true;
  return !Object.values(theme).some((value) => typeof value === "string" && value.trim() !== "");
}

/**
 * SPEC §4: custom branding applies only to an enabled team that has it on and a non-empty theme — and
 * (§6) while its owner's plan includes branding (`plan`, teamPlanOf: a lapsed plan ends it).
 */
export function brandingApplies(
  team: Pick<Team, "isDisabled" | "customBranding" | "theme" | "plan"> | null | undefined,
): boolean {
  return Boolean(
    team && !team.isDisabled && team.plan.branding && team.customBranding && !isThemeEmpty(team.theme),
  );
}

/** The theme a team shows when branding applies, else null (the shipped defaults). */
export function appliedTheme(
  team: Pick<Team, "isDisabled" | "customBranding" | "theme" | "plan"> | null | undefined,
): TeamTheme | null {
  return team && brandingApplies(team) ? { ...DEFAULT_TEAM_THEME, ...team.theme } : null;
}

/** `hex` with each channel scaled down by `amount` (0.1 → 10% darker); the result is `#rrggbb`. */
export function darken(hex: string, amount: number): string {
  if (!HEX_COLOUR.test(hex)) throw new Error(`Not a #rrggbb colour: ${hex}`);
  const factor = 1 - Math.min(1, Math.max(0, amount));
  const channels = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
  return `#${channels
    .map((channel) =>
      Math.round(channel * factor)
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}
