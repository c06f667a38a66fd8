import { EXTENSION_ID } from "@redline/shared";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../env.ts";
import { isExtensionOrigin } from "./principal.ts";

describe("the browser extension's origins (EXTENSION_ORIGINS)", () => {
  const firefox = "moz-extension://5a1e6c1e-0b5e-4c6e-9d1e-3f0c2a9b7d41";

  it("admits the Chromium build's fixed id and, by default, any Firefox installation (each has its own id)", () => {
    const { extensionOrigins } = loadConfig({ DATA_DIR: "/tmp/redline-env-test" });
    expect(extensionOrigins).toEqual([`chrome-extension://${EXTENSION_ID}`, "moz-extension://*"]);
    expect(isExtensionOrigin(`chrome-extension://${EXTENSION_ID}`, extensionOrigins)).toBe(true);
    expect(isExtensionOrigin(firefox, extensionOrigins)).toBe(true);
    expect(isExtensionOrigin("chrome-extension://abcdefghijklmnopabcdefghijklmnop", extensionOrigins)).toBe(
      false,
    );
  });

  it("admits only the listed ones when set: an exact origin is not a prefix", () => {
    const { extensionOrigins } = loadConfig({
      DATA_DIR: "/tmp/redline-env-test",
      EXTENSION_ORIGINS: ` ${firefox}/ , chrome-extension://*`,
    });
    expect(extensionOrigins).toEqual([firefox, "chrome-extension://*"]);
    expect(isExtensionOrigin(firefox, extensionOrigins)).toBe(true);
    expect(isExtensionOrigin(`${firefox}0`, extensionOrigins)).toBe(false);
    expect(isExtensionOrigin("moz-extension://0b5e0b5e-0000-4000-8000-000000000000", extensionOrigins)).toBe(
      false,
    );
    expect(isExtensionOrigin(`chrome-extension://${EXTENSION_ID}`, extensionOrigins)).toBe(true);
  });

  it("refuses what is not an extension's origin, whatever the list", () => {
    const all = ["moz-extension://*", "chrome-extension://*"];
    for (const origin of [
      undefined,
      "",
      "null",
      "moz-extension://",
      "https://moz-extension.example",
      "moz-extension://evil.example",
      "moz-extension://id:8080",
      `${firefox}/path`,
      "http://localhost:3000",
    ])
      expect(isExtensionOrigin(origin, all)).toBe(false);
  });
});
