import { deckSchema, orderedSlides } from "@redline/shared";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import {
  addBlankSlide,
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

  /** Two editors holding the same deck, each changing it before hearing of the other's change. */
  function apart(build: (slides: Y.Map<Y.Map<unknown>>) => void) {
    const a = deckMap();
    build(a);
    const b = deckMap();
    Y.applyUpdate(b.doc as Y.Doc, Y.encodeStateAsUpdate(a.doc as Y.Doc));
    const exchange = () => {
      const toB = Y.encodeStateAsUpdate(a.doc as Y.Doc, Y.encodeStateVector(b.doc as Y.Doc));
      const toA = Y.encodeStateAsUpdate(b.doc as Y.Doc, Y.encodeStateVector(a.doc as Y.Doc));
      Y.applyUpdate(b.doc as Y.Doc, toB);
      Y.applyUpdate(a.doc as Y.Doc, toA);
    };
    return { a, b, exchange };
  }

  it("ends with exactly one blank slide when two editors delete the last slide at once", () => {
    let last = "";
    const { a, b, exchange } = apart((slides) => {
      addSlide(slides);
      last = addSlide(slides);
      deleteSlide(slides, orderedSlides(deckOf(slides))[0]!.id);
    });
    const blankA = deleteSlide(a, last);
    const blankB = deleteSlide(b, last);
    expect(blankA).toBe(blankB);
    exchange();
    expect(deckOf(a)).toEqual(deckOf(b));
    expect(Object.keys(deckOf(a))).toEqual([blankA]);
    expect(deckSchema.safeParse(deckOf(a)).success).toBe(true);
  });

  it("ends with one blank slide when two editors each delete one of the last two", () => {
    const ids: string[] = [];
    const { a, b, exchange } = apart((slides) => {
      ids.push(addSlide(slides), addSlide(slides));
    });
    deleteSlide(a, ids[0]!);
    deleteSlide(b, ids[1]!);
    exchange();
    expect(deckOf(a)).toEqual({});
    // Each editor finds the deck empty and starts it again: with the same slide.
    expect(addBlankSlide(a)).toBe(addBlankSlide(b));
    exchange();
    expect(Object.keys(deckOf(a))).toHaveLength(1);
    expect(deckOf(a)).toEqual(deckOf(b));
  });

  it("never gives a later blank slide an earlier one's id, and undo brings the deleted slide back", () => {
    const slides = deckMap();
    const undo = new Y.UndoManager(slides, { trackedOrigins: new Set([LOCAL]), captureTimeout: 0 });
    const first = addBlankSlide(slides);
    const second = deleteSlide(slides, first) as string;
    expect(second).not.toBe(first);
    const third = deleteSlide(slides, second) as string;
    expect(new Set([first, second, third]).size).toBe(3);
    undo.undo();
    expect(Object.keys(deckOf(slides))).toEqual([second]);
  });
});
