import { DEFAULT_TEAM_THEME, type TeamTheme } from "@redline/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { saveTeamId, subscribeSavedTeam } from "./active-team.ts";
import { applyBranding, BRANDING_TOKENS, brandingTokens, faviconFor, headerLogoFor } from "./branding.ts";

const theme: TeamTheme = {
  primaryColor: "#2255aa",
  secondaryColor: "#eef2ff",
  textHighlightColor: "#fffff0",
  logoURL: "/files/branding/t1/logo.png",
  iconURL: "/files/branding/t1/icon.png",
};

const token = (name: string) => document.documentElement.style.getPropertyValue(name);
const favicon = () => document.head.querySelector<HTMLLinkElement>('link[rel~="icon"]');

describe("a team's branding in the document", () => {
  beforeEach(() => {
    document.head.innerHTML = '<link rel="icon" type="image/svg+xml" href="/favicon.svg" />';
  });
  afterEach(() => applyBranding(null));

  it("sets the accent tokens: primary, a hover 10% darker (SPEC §9), the soft tint and the text on it", () => {
    expect(brandingTokens(theme)).toEqual({
      "--color-accent": "#2255aa",
      "--color-accent-hover": "#1f4d99",
      "--color-accent-soft": "#eef2ff",
      "--color-on-accent": "#fffff0",
    });
    // The shipped theme gives back the shipped tokens (tokens.css).
    expect(brandingTokens(DEFAULT_TEAM_THEME)["--color-accent-hover"]).toBe("#ce3235");
  });

  it("applies the tokens and the team's icon as favicon, and restores the defaults for null", () => {
    applyBranding(theme);
    expect(token("--color-accent")).toBe("#2255aa");
    expect(token("--color-accent-hover")).toBe("#1f4d99");
    expect(favicon()?.getAttribute("href")).toBe(theme.iconURL);
    expect(favicon()?.type).toBe("image/png");
    expect(document.head.querySelectorAll('link[rel~="icon"]')).toHaveLength(1);

    applyBranding(null);
    for (const name of BRANDING_TOKENS) expect(token(name)).toBe("");
    expect(favicon()?.getAttribute("href")).toBe("/favicon.svg");
    expect(favicon()?.type).toBe("image/svg+xml");
  });

  it("keeps the shipped favicon for a theme without an icon, and adds a link when the page has none", () => {
    expect(faviconFor({ ...theme, iconURL: null }).href).toBe("/favicon.svg");
    document.head.innerHTML = "";
    applyBranding(theme);
    expect(favicon()?.getAttribute("href")).toBe(theme.iconURL);
  });

  it("shows the team's logo in the header, else its icon, else the shipped logo (SPEC §2)", () => {
    expect(headerLogoFor(theme)).toBe(theme.logoURL);
    expect(headerLogoFor({ ...theme, logoURL: null })).toBe(theme.iconURL);
    expect(headerLogoFor({ ...theme, logoURL: null, iconURL: null })).toBeNull();
    expect(headerLogoFor(null)).toBeNull();
  });
});

describe("the active team", () => {
  it("tells its subscribers when another team is saved", () => {
    let calls = 0;
    const unsubscribe = subscribeSavedTeam(() => {
      calls += 1;
    });
    saveTeamId("web", "t2");
    expect(calls).toBe(1);
    unsubscribe();
    saveTeamId("web", "t3");
    expect(calls).toBe(1);
  });
});
