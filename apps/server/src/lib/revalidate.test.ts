import { describe, expect, it } from "vitest";
import { COMPRESS_FROM_BYTES, encodingFor, matchesTag } from "./revalidate.ts";

const large = Buffer.alloc(COMPRESS_FROM_BYTES, "a");
const small = Buffer.alloc(COMPRESS_FROM_BYTES - 1, "a");

describe("encodingFor", () => {
  it.each([
    ["gzip, deflate, br, zstd", large, "br"],
    ["gzip, deflate", large, "gzip"],
    ["br;q=0.5, gzip", large, "gzip"],
    ["br;q=0, gzip;q=0", large, null],
    ["identity", large, null],
    ["deflate", large, null],
    ["*", large, "br"],
    [undefined, large, null],
    ["gzip, br", small, null],
  ] as const)("accept-encoding %j for %d bytes → %s", (header, body, expected) => {
    expect(encodingFor(header, body)).toBe(expected);
  });
});

describe("matchesTag", () => {
  it.each([
    ['"a"', '"a"', true],
    ['W/"a"', '"a"', true],
    ['"b", "a"', '"a"', true],
    ["*", '"a"', true],
    ['"a-br"', '"a"', false],
    [undefined, '"a"', false],
  ] as const)("if-none-match %j against %s → %s", (header, tag, expected) => {
    expect(matchesTag(header, tag)).toBe(expected);
  });
});
