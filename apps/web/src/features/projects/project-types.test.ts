import { creatableTypes } from "@redline/shared";
import { describe, expect, it } from "vitest";
import { CREATABLE_TYPES, creatableTypesIn } from "./project-types.ts";

describe("the types the add-project modal offers per product (SPEC §1)", () => {
  it("offers only bug tracking in the bug-tracking product", () => {
    expect(creatableTypesIn("browse")).toEqual(["browse"]);
  });

  it("offers every type, bug tracking last, in website feedback", () => {
    expect(creatableTypesIn("web")).toEqual(CREATABLE_TYPES);
    expect(CREATABLE_TYPES.at(-1)).toBe("browse");
  });

  it("offers illustration only once the slide editor exists (SHIPPED_FEATURES), never as a placeholder", () => {
    expect(CREATABLE_TYPES).toContain("illustration");
    expect(creatableTypes(["web", "illustration"], { slideEditor: true })).toEqual(["web", "illustration"]);
    expect(creatableTypes(["web", "illustration"], { slideEditor: false })).toEqual(["web"]);
  });
});
