import {
  MAX_CONSOLE_ENTRIES as SHARED_CONSOLE,
  MAX_FAILED_REQUESTS as SHARED_REQUESTS,
} from "@redline/shared";
import { describe, expect, it } from "vitest";
import { describeValue, MAX_CONSOLE_ENTRIES, MAX_FAILED_REQUESTS } from "./buffers.ts";
import { browserOf, osOf } from "./environment.ts";

describe("ring buffer sizes", () => {
  it("are the contract's (the intake refuses longer lists)", () => {
    expect(MAX_CONSOLE_ENTRIES).toBe(SHARED_CONSOLE);
    expect(MAX_FAILED_REQUESTS).toBe(SHARED_REQUESTS);
  });
});

describe("console arguments as text", () => {
  it("keeps strings, writes objects as JSON and errors with their stack", () => {
    expect(describeValue("plain")).toBe("plain");
    expect(describeValue({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(describeValue(undefined)).toBe("undefined");
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(describeValue(circular)).toBe("[object Object]");
    expect(describeValue(new TypeError("bad"))).toMatch(/^TypeError: bad/);
  });
});

describe("environment from the user agent", () => {
  const cases: [string, string, string][] = [
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      "Edge 131",
      "Windows 10/11",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
      "Safari 17",
      "macOS 10.15",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
      "Safari 17",
      "iOS 17",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
      "Chrome 131",
      "Android 14",
    ],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox 133", "Linux"],
    ["curl/8.0", "Unknown browser", "Unknown OS"],
  ];
  it.each(cases)("%s", (ua, browser, os) => {
    expect(browserOf(ua)).toBe(browser);
    expect(osOf(ua)).toBe(os);
  });
});
