import { describe, expect, it } from "vitest";
import { isSupportingBrowser } from "./use-extension-installed.ts";

describe("isSupportingBrowser", () => {
  it("is a Chromium-based browser (the extension's address is fixed there)", () => {
    const chrome =
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
    const edge = `${chrome} Edg/156.0.0.0`;
    expect(isSupportingBrowser({ userAgent: chrome })).toBe(true);
    expect(isSupportingBrowser({ userAgent: edge })).toBe(true);
  });

  it("is not Firefox or Safari", () => {
    expect(
      isSupportingBrowser({
        userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0",
      }),
    ).toBe(false);
    expect(
      isSupportingBrowser({
        userAgent:
          "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
      }),
    ).toBe(false);
  });
});
