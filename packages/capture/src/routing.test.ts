import { describe, expect, it } from "vitest";
import { withoutTrustedTypes, withoutTrustedTypesInMeta } from "./routing.ts";

describe("a page's content security policy in a capture", () => {
  it("keeps every directive but the ones that require Trusted Types, in each policy of a list", () => {
    expect(
      withoutTrustedTypes(
        "default-src 'self'; Require-Trusted-Types-For 'script'; trusted-types app 'allow-duplicates'; img-src *",
      ),
    ).toBe("default-src 'self'; img-src *");
    expect(withoutTrustedTypes("require-trusted-types-for 'script', script-src 'self'")).toBe(
      " script-src 'self'",
    );
    expect(withoutTrustedTypes("script-src 'self'")).toBe("script-src 'self'");
  });

  it("rewrites only the policy meta tags of a document, leaving every other byte as it was", () => {
    // Shift_JIS bytes around the tag: not UTF-8, and not to be touched.
    const sjis = Buffer.from([0x82, 0xa0, 0x82, 0xa2]);
    const page = Buffer.concat([
      Buffer.from(
        `<meta http-equiv='content-security-policy' content="require-trusted-types-for 'script'; style-src 'self'">` +
          `<meta name="description" content="about trusted-types">`,
        "latin1",
      ),
      sjis,
    ]);
    const rewritten = withoutTrustedTypesInMeta(page);
    expect(rewritten.toString("latin1")).toContain(`content=" style-src 'self'"`);
    expect(rewritten.toString("latin1")).toContain(`content="about trusted-types"`);
    expect(rewritten.subarray(-4)).toEqual(sjis);
    const untouched = Buffer.from("<p>no policy</p>");
    expect(withoutTrustedTypesInMeta(untouched)).toBe(untouched);
  });
});
