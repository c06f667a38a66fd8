import { deckSchema, orderedSlides } from "@redline/shared";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import {
  addSlide,
  addText,
  alignPatches,
  deckOf,
  deleteSlide,
  duplicateSlide,
  moveSlide,
  reorderObjects,
  updateObjects,
} from "./deck-model.ts";
import { LOCAL } from "./deck-sync.ts";

const deckMap = () => new Y.Doc().getMap<Y.Map<unknown>>("slides");

/** Two editors' documents exchanging every update, as the server's room does. */
function pair() {
  const a = deckMap();
  const b = deckMap();
  (a.doc as Y.Doc).on(
    "update",
    (u: Uint8Array, origin: unknown) => origin !== "b" && Y.applyUpdate(b.doc as Y.Doc, u, "a"),
  );
  (b.doc as Y.Doc).on(
    "update",
    (u: Uint8Array, origin: unknown) => origin !== "a" && Y.applyUpdate(a.doc as Y.Doc, u, "b"),
  );
  return { a, b };
}

describe("the deck model", () => {
  it("makes decks the schema accepts: add, duplicate, move, delete (the last one replaced by a blank one)", () => {
    const slides = deckMap();
    const first = addSlide(slides);
    const text = addText(slides, first, { x: 10, y: 20 });
    const copy = duplicateSlide(slides, first) as string;
    expect(deckSchema.safeParse(deckOf(slides)).success).toBe(true);
    expect(orderedSlides(deckOf(slides)).map((s) => s.id)).toEqual([first, copy]);
    expect(Object.values(deckOf(slides)[copy]!.objects)[0]).toMatchObject({ kind: "text", x: 10, y: 20 });
    expect(Object.keys(deckOf(slides)[copy]!.objects)).not.toContain(text);
    moveSlide(slides, copy, 0);
    expect(orderedSlides(deckOf(slides)).map((s) => s.id)).toEqual([copy, first]);
    expect(deleteSlide(slides, copy)).toBe(first);
    // The last slide gives way to a blank one (a new slide: the old one's comments go with it).
    const blank = deleteSlide(slides, first) as string;
    expect(blank).not.toBe(first);
    expect(Object.keys(deckOf(slides))).toEqual([blank]);
    expect(deckOf(slides)[blank]).toMatchObject({ objects: {}, notes: "" });
    expect(deckSchema.safeParse(deckOf(slides)).success).toBe(true);
  });

  it("merges two editors' concurrent edits of one object property by property", () => {
    const { a, b } = pair();
    const slide = addSlide(a);
    const text = addText(a, slide, { x: 0, y: 0 });
    (a.doc as Y.Doc).transact(() => updateObjects(a, slide, { [text]: { x: 30 } }));
    updateObjects(b, slide, { [text]: { fontWeight: 700 } });
    expect(deckOf(a)).toEqual(deckOf(b));
    expect(deckOf(a)[slide]!.objects[text]).toMatchObject({ x: 30, fontWeight: 700 });
  });

  it("undoes only this editor's own changes", () => {
    const { a, b } = pair();
    const undo = new Y.UndoManager(a, { trackedOrigins: new Set([LOCAL]), captureTimeout: 0 });
    const slide = addSlide(a);
    const text = addText(a, slide, { x: 0, y: 0 });
    updateObjects(a, slide, { [text]: { x: 10 } });
    updateObjects(b, slide, { [text]: { italic: true } });
    undo.undo();
    expect(deckOf(b)[slide]!.objects[text]).toMatchObject({ x: 0, italic: true });
  });

  it("aligns and layers objects", () => {
    const slides = deckMap();
    const slide = addSlide(slides);
    const one = addText(slides, slide, { x: 10, y: 10 });
    const two = addText(slides, slide, { x: 200, y: 300 });
    const objects = Object.values(deckOf(slides)[slide]!.objects);
    updateObjects(slides, slide, alignPatches(objects, "left", { width: 1000, height: 700 }));
    expect(Object.values(deckOf(slides)[slide]!.objects).map((o) => o.x)).toEqual([10, 10]);
    reorderObjects(slides, slide, [one], "front");
    const z = deckOf(slides)[slide]!.objects;
    expect(z[one]!.z).toBeGreaterThan(z[two]!.z);
  });
});
