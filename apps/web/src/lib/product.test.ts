import { afterEach, describe, expect, it, vi } from "vitest";
import { chooseProduct, chosenProduct, productOfTab, subscribeProduct, switchTarget } from "./product.ts";

afterEach(() => localStorage.clear());

describe("the tab's product (SPEC §1)", () => {
  it("is the host's on a bug-tracking host, whatever was chosen", () => {
    expect(productOfTab("bugs.example.com", "bugs", "web")).toBe("browse");
    expect(productOfTab("bugs-example.com", "bugs", "web")).toBe("browse");
    expect(productOfTab("example.com", "bugs", "browse")).toBe("browse");
    expect(productOfTab("example.com", "bugs", "web")).toBe("web");
    // Before the configuration arrives the default prefix applies.
    expect(productOfTab("bugs.localhost", undefined, "web")).toBe("browse");
  });

  it("remembers the choice and tells this tab's subscribers", () => {
    expect(chosenProduct()).toBe("web");
    const heard = vi.fn();
    const stop = subscribeProduct(heard);
    chooseProduct("browse");
    expect(chosenProduct()).toBe("browse");
    expect(heard).toHaveBeenCalledTimes(1);
    chooseProduct("browse");
    expect(heard).toHaveBeenCalledTimes(1);
    stop();
    chooseProduct("web");
    expect(heard).toHaveBeenCalledTimes(1);
    expect(chosenProduct()).toBe("web");
  });

  it("ignores a stored value that is not a product", () => {
    localStorage.setItem("redline.product", "video");
    expect(chosenProduct()).toBe("web");
  });
});

describe("the switcher's target", () => {
  const single = { webUrl: "https://r.example.com", browseUrl: null };
  const two = { webUrl: "https://r.example.com", browseUrl: "https://bugs.r.example.com" };

  it("chooses in the tab on a single-host install", () => {
    const here = { origin: "https://r.example.com", hostDecides: false };
    expect(switchTarget("browse", here, single)).toEqual({ kind: "choose" });
    expect(switchTarget("web", here, single)).toEqual({ kind: "choose" });
  });

  it("leads to the other host when the products live on two", () => {
    const onWeb = { origin: "https://r.example.com", hostDecides: false };
    const onBugs = { origin: "https://bugs.r.example.com", hostDecides: true };
    expect(switchTarget("browse", onWeb, two)).toEqual({
      kind: "navigate",
      url: "https://bugs.r.example.com/projects",
    });
    expect(switchTarget("web", onBugs, two)).toEqual({
      kind: "navigate",
      url: "https://r.example.com/projects",
    });
    expect(switchTarget("browse", onBugs, two)).toEqual({ kind: "choose" });
  });

  it("offers no way out of a bug-tracking host that is the only host", () => {
    const onBugs = { origin: "https://bugs.example.com", hostDecides: true };
    expect(switchTarget("web", onBugs, { webUrl: "https://bugs.example.com", browseUrl: null })).toBeNull();
  });
});
