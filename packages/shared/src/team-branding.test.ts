import { describe, expect, it } from "vitest";
import {
  appliedTheme,
  BRANDING_MAX_BYTES,
  brandingApplies,
  brandingUpdateNeedsPlan,
  DEFAULT_TEAM_THEME,
  darken,
  HOVER_DARKEN,
  isThemeEmpty,
  teamBrandingUpdateSchema,
} from "./team-branding.ts";
import { teamPlanOf, upsellPlanOf } from "./teams.ts";

const theme = { ...DEFAULT_TEAM_THEME, primaryColor: "#2255aa" };
/** The team's plan from its owner's: branding in it, or lapsed. */
const paid = { isPaid: true, branding: true, customDomain: true };
const lapsed = { isPaid: false, branding: false, customDomain: false };

describe("team branding", () => {
  it("applies only to an enabled team with branding on and a non-empty theme (SPEC §4)", () => {
    expect(brandingApplies({ isDisabled: false, customBranding: true, theme, plan: paid })).toBe(true);
    expect(brandingApplies({ isDisabled: true, customBranding: true, theme, plan: paid })).toBe(false);
    expect(brandingApplies({ isDisabled: false, customBranding: false, theme, plan: paid })).toBe(false);
    expect(brandingApplies({ isDisabled: false, customBranding: true, theme: null, plan: paid })).toBe(false);
    const blank = {
      primaryColor: "",
      secondaryColor: " ",
      textHighlightColor: "",
      logoURL: null,
      iconURL: null,
    };
    expect(brandingApplies({ isDisabled: false, customBranding: true, theme: blank, plan: paid })).toBe(
      false,
    );
    expect(brandingApplies(null)).toBe(false);
    // SPEC §6: only while the team owner's plan includes branding; a lapsed plan ends it.
    expect(brandingApplies({ isDisabled: false, customBranding: true, theme, plan: lapsed })).toBe(false);
  });

  it("takes a team's plan from its owner's: paid, branding, custom domain — nothing on a disabled team", () => {
    const teamPlan = { isFree: false, entitlements: { branding: true, customDomain: false } };
    expect(teamPlanOf({ isDisabled: false }, teamPlan)).toEqual({
      isPaid: true,
      branding: true,
      customDomain: false,
    });
    expect(teamPlanOf({ isDisabled: true }, teamPlan)).toEqual(lapsed);
    expect(teamPlanOf({ isDisabled: false }, null)).toEqual(lapsed);
    const free = { isFree: true, entitlements: { branding: false, customDomain: false } };
    expect(teamPlanOf({ isDisabled: false }, free)).toEqual(lapsed);
  });

  it("offers no upsell to someone with an enabled team: in it (not only a collaborator), its owner paying", () => {
    const own = { isFree: true, hideUpsells: false, name: "Free" };
    expect(upsellPlanOf(own, [{ role: "member", plan: paid }])).toEqual({
      isFree: false,
      hideUpsells: true,
      name: "Free",
    });
    expect(upsellPlanOf(own, [{ role: "collaborator", plan: paid }])).toBe(own);
    expect(upsellPlanOf(own, [{ role: "manager", plan: lapsed }])).toBe(own);
    expect(upsellPlanOf(own, [])).toBe(own);
  });

  it("calls a theme empty when nothing in it is set", () => {
    expect(isThemeEmpty(null)).toBe(true);
    expect(
      isThemeEmpty({ ...DEFAULT_TEAM_THEME, primaryColor: "", secondaryColor: "", textHighlightColor: "" }),
    ).toBe(true);
    expect(
      isThemeEmpty({
        primaryColor: "",
        secondaryColor: "",
        textHighlightColor: "",
        logoURL: "/files/x.png",
        iconURL: null,
      }),
    ).toBe(false);
  });

  it("shows the team's theme, filled with the defaults, only when branding applies", () => {
    expect(appliedTheme({ isDisabled: false, customBranding: true, theme, plan: paid })).toEqual(theme);
    expect(appliedTheme({ isDisabled: false, customBranding: false, theme, plan: paid })).toBeNull();
  });

  it("darkens the hover colour by 10% (SPEC §9): the shipped accent's hover token", () => {
    expect(darken("#e5383b", HOVER_DARKEN)).toBe("#ce3235");
    expect(darken("#FFFFFF", 0.1)).toBe("#e6e6e6");
    expect(darken("#000000", 0.1)).toBe("#000000");
    expect(darken("#123456", 0)).toBe("#123456");
    expect(darken("#123456", 1)).toBe("#000000");
    expect(() => darken("red", 0.1)).toThrow();
  });

  it("accepts the switch and #rrggbb colours (lower-cased), nothing else, and at least one of them", () => {
    expect(teamBrandingUpdateSchema.parse({ customBranding: true, primaryColor: "#AABBCC" })).toEqual({
      customBranding: true,
      primaryColor: "#aabbcc",
    });
    for (const bad of [
      { primaryColor: "red" },
      { primaryColor: "#abc" },
      { secondaryColor: "#gggggg" },
      { textHighlightColor: "#1234567" },
      { logoURL: "/files/x.png" },
      { customBranding: "yes" },
      {},
    ])
      expect(teamBrandingUpdateSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });

  it("needs the owner's branding entitlement to add or turn on branding, never to turn it off", () => {
    expect(brandingUpdateNeedsPlan({ customBranding: true })).toBe(true);
    expect(brandingUpdateNeedsPlan({ primaryColor: "#000000" })).toBe(true);
    expect(brandingUpdateNeedsPlan({ customBranding: false })).toBe(false);
  });

  it("takes logos and icons up to 5 MB", () => {
    expect(BRANDING_MAX_BYTES).toBe(5 * 1024 * 1024);
  });
});
