import { describe, expect, it } from "vitest";
import { canCloseOfferBar, type OfferBarInput, showsOfferBar } from "./offer-bar-rule.ts";

const FREE = { isFree: true, hideUpsells: false };
const PAID = { isFree: false, hideUpsells: false };
const HIDDEN = { isFree: true, hideUpsells: true };

const input = (fields: Partial<OfferBarInput>): OfferBarInput => ({
  pathname: "/projects",
  search: "",
  plan: FREE,
  isClosed: false,
  ...fields,
});

describe("the offer bar rule (SPEC §4, §9)", () => {
  it.each([
    ["/projects", true],
    ["/projects/", true],
    ["/billing", true],
    ["/upgrade", true],
    ["/offers", false],
    ["/projects/archived", false],
    ["/upgrade/confirm/pro-yearly", false],
    ["/profile", false],
    ["/project/p1", false],
  ])("on %s, for a free user: %s", (pathname, shows) => {
    expect(showsOfferBar(input({ pathname }))).toBe(shows);
  });

  it("is not offered to a paid user, nor when upsells are hidden (lifetime, privilege, plans off)", () => {
    expect(showsOfferBar(input({ plan: PAID }))).toBe(false);
    expect(showsOfferBar(input({ plan: HIDDEN }))).toBe(false);
    expect(showsOfferBar(input({ pathname: "/upgrade", plan: HIDDEN }))).toBe(false);
  });

  it("is hidden when the URL says team=true", () => {
    expect(showsOfferBar(input({ search: "?team=true" }))).toBe(false);
    expect(showsOfferBar(input({ pathname: "/billing", search: "?a=1&team=true" }))).toBe(false);
    expect(showsOfferBar(input({ search: "?team=false" }))).toBe(true);
  });

  it("stays closed once closed this session, except on /billing and /upgrade", () => {
    expect(showsOfferBar(input({ isClosed: true }))).toBe(false);
    expect(showsOfferBar(input({ pathname: "/billing", isClosed: true }))).toBe(true);
    expect(showsOfferBar(input({ pathname: "/upgrade", isClosed: true }))).toBe(true);
  });

  it("offers a close button only where closing lasts", () => {
    expect(canCloseOfferBar("/projects")).toBe(true);
    expect(canCloseOfferBar("/billing")).toBe(false);
    expect(canCloseOfferBar("/upgrade/")).toBe(false);
  });
});
