import Konva from "konva";
import { describe, expect, it } from "vitest";
import { newId } from "./deck-model.ts";
import { objectNode } from "./slide-render.ts";

describe("objectNode", () => {
  it("finds a slide object whatever its id begins with (a digit needs an escape Konva's selectors lack)", () => {
    const parent = new Konva.Group();
    const ids = ["8f687dd2114044349cfc", "f7dee6d862e644c59347", "0abc", newId()];
    for (const id of ids) parent.add(new Konva.Group({ id, name: "object" }));
    // A node that is not a slide object (a guide, an outline) is never taken for one.
    parent.add(new Konva.Group({ id: "outline" }));
    for (const id of ids) expect(objectNode(parent, id)?.id()).toBe(id);
    expect(objectNode(parent, "outline")).toBeUndefined();
    expect(objectNode(parent, "missing")).toBeUndefined();
  });
});
