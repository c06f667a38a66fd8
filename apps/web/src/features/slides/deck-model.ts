/**
 * The edits of the slide editor as changes of the deck's Yjs document, each one local transaction (one
 * undo step): slides are maps keyed by id with a position, objects maps keyed by id, so two editors'
 * changes merge property by property (ADR 0040). The rules themselves (order, deletion, sizes) are
 * packages/shared/src/slides.ts's.
 */
import {
  afterDeleting,
  blankSlideId,
  DEFAULT_TEXT_STYLE,
  type Deck,
  orderedSlides,
  positionBetween,
  positionForMove,
  type Slide,
  type SlideObject,
} from "@redline/shared";
import * as Y from "yjs";
import { LOCAL } from "./deck-sync.ts";

type SlidesMap = Y.Map<Y.Map<unknown>>;

export const newId = () => crypto.randomUUID().replaceAll("-", "").slice(0, 20);

const toMap = (fields: Record<string, unknown>) => {
  const map = new Y.Map<unknown>();
  for (const [key, value] of Object.entries(fields)) map.set(key, value);
  return map;
};

function slideMap(fields: Omit<Slide, "objects">, objects: SlideObject[] = []) {
  const map = toMap(fields);
  const children = new Y.Map<Y.Map<unknown>>();
  for (const object of objects) children.set(object.id, toMap(object));
  map.set("objects", children);
  return map;
}

export function deckOf(slides: SlidesMap): Deck {
  return slides.toJSON() as Deck;
}

function transact(slides: SlidesMap, change: () => void) {
  (slides.doc as Y.Doc).transact(change, LOCAL);
}

const objectsOf = (slides: SlidesMap, slideId: string) =>
  slides.get(slideId)?.get("objects") as Y.Map<Y.Map<unknown>> | undefined;

/** A blank slide after `afterId` (or at the end); its id. */
export function addSlide(slides: SlidesMap, afterId?: string): string {
  const order = orderedSlides(deckOf(slides));
  const index = afterId ? order.findIndex((slide) => slide.id === afterId) : order.length - 1;
  const id = newId();
  transact(slides, () => {
    slides.set(
      id,
      slideMap({
        id,
        position: positionBetween(order[index]?.position, order[index + 1]?.position),
        createdAt: Date.now(),
        notes: "",
      }),
    );
  });
  return id;
}

/** A copy of a slide right after it, its objects with new ids; the copy's id. */
export function duplicateSlide(slides: SlidesMap, slideId: string): string | null {
  const deck = deckOf(slides);
  const source = deck[slideId];
  if (!source) return null;
  const order = orderedSlides(deck);
  const index = order.findIndex((slide) => slide.id === slideId);
  const id = newId();
  transact(slides, () => {
    slides.set(
      id,
      slideMap(
        {
          id,
          position: positionBetween(source.position, order[index + 1]?.position),
          createdAt: Date.now(),
          notes: source.notes,
        },
        Object.values(source.objects).map((object) => ({ ...object, id: newId() })),
      ),
    );
  });
  return id;
}

/** The blank slide's id for this deck as this editor holds it (shared `blankSlideId`: the ids it ever had). */
const blankIdOf = (slides: SlidesMap) => blankSlideId(slides._map.keys());

const blankSlide = (id: string) => slideMap({ id, position: 1, createdAt: Date.now(), notes: "" });

/** An empty deck's blank slide (an editor opening it, or finding it emptied by others); its id. */
export function addBlankSlide(slides: SlidesMap): string {
  const id = blankIdOf(slides);
  transact(slides, () => slides.set(id, blankSlide(id)));
  return id;
}

/** SPEC §4: the slide shown next; the last slide is replaced by a blank one (SPEC: "resets it"). */
export function deleteSlide(slides: SlidesMap, slideId: string): string | null {
  const order = orderedSlides(deckOf(slides));
  const { next, reset } = afterDeleting(order, slideId);
  // The last slide gives way to a blank one whose id is the same in every editor (blankIdOf), in the
  // same transaction: one undo step takes the blank slide out and brings the deleted one back.
  const blank = reset ? blankIdOf(slides) : null;
  transact(slides, () => {
    slides.delete(slideId);
    if (blank) slides.set(blank, blankSlide(blank));
  });
  return blank ?? next;
}

export function moveSlide(slides: SlidesMap, slideId: string, index: number): void {
  const order = orderedSlides(deckOf(slides));
  transact(slides, () => slides.get(slideId)?.set("position", positionForMove(order, slideId, index)));
}

export function setNotes(slides: SlidesMap, slideId: string, notes: string): void {
  transact(slides, () => slides.get(slideId)?.set("notes", notes));
}

const topZ = (slides: SlidesMap, slideId: string) =>
  Math.max(0, ...Object.values(deckOf(slides)[slideId]?.objects ?? {}).map((object) => object.z));

export function addObject(slides: SlidesMap, slideId: string, object: Omit<SlideObject, "id" | "z">): string {
  const id = newId();
  const z = topZ(slides, slideId) + 1;
  transact(slides, () => objectsOf(slides, slideId)?.set(id, toMap({ ...object, id, z })));
  return id;
}

export function addText(slides: SlidesMap, slideId: string, at: { x: number; y: number }): string {
  return addObject(slides, slideId, {
    kind: "text",
    text: "Double-click to edit",
    x: at.x,
    y: at.y,
    width: 320,
    height: 40,
    rotation: 0,
    ...DEFAULT_TEXT_STYLE,
  } as Omit<SlideObject, "id" | "z">);
}

/** Changes some properties of objects, each its own patch, as one undo step. */
export function updateObjects(
  slides: SlidesMap,
  slideId: string,
  patches: Record<string, Partial<SlideObject>>,
): void {
  const objects = objectsOf(slides, slideId);
  if (!objects) return;
  transact(slides, () => {
    for (const [id, patch] of Object.entries(patches)) {
      const object = objects.get(id);
      if (!object) continue;
      for (const [key, value] of Object.entries(patch)) if (object.get(key) !== value) object.set(key, value);
    }
  });
}

export function deleteObjects(slides: SlidesMap, slideId: string, ids: readonly string[]): void {
  const objects = objectsOf(slides, slideId);
  transact(slides, () => {
    for (const id of ids) objects?.delete(id);
  });
}

/** Brings objects to the front or sends them to the back. */
export function reorderObjects(
  slides: SlidesMap,
  slideId: string,
  ids: readonly string[],
  to: "front" | "back",
): void {
  const all = Object.values(deckOf(slides)[slideId]?.objects ?? {});
  const zs = all.map((object) => object.z);
  const base = to === "front" ? Math.max(0, ...zs) + 1 : Math.min(0, ...zs) - ids.length;
  updateObjects(slides, slideId, Object.fromEntries(ids.map((id, i) => [id, { z: base + i }])));
}

export type Alignment = "left" | "center" | "right" | "top" | "middle" | "bottom";

/** Aligns objects to each other (or one to the slide) — their unrotated boxes. */
export function alignPatches(
  objects: readonly SlideObject[],
  alignment: Alignment,
  slide: { width: number; height: number },
): Record<string, Partial<SlideObject>> {
  if (objects.length === 0) return {};
  const box =
    objects.length === 1
      ? { left: 0, top: 0, right: slide.width, bottom: slide.height }
      : {
          left: Math.min(...objects.map((o) => o.x)),
          top: Math.min(...objects.map((o) => o.y)),
          right: Math.max(...objects.map((o) => o.x + o.width)),
          bottom: Math.max(...objects.map((o) => o.y + o.height)),
        };
  const patch = (o: SlideObject): Partial<SlideObject> => {
    switch (alignment) {
      case "left":
        return { x: box.left };
      case "center":
        return { x: Math.round((box.left + box.right - o.width) / 2) };
      case "right":
        return { x: box.right - o.width };
      case "top":
        return { y: box.top };
      case "middle":
        return { y: Math.round((box.top + box.bottom - o.height) / 2) };
      case "bottom":
        return { y: box.bottom - o.height };
    }
  };
  return Object.fromEntries(objects.map((o) => [o.id, patch(o)]));
}

/** The slide shown first: the first in order, or a new blank one on an empty deck (editors only). */
export function firstSlideId(slides: SlidesMap): string | null {
  return orderedSlides(deckOf(slides))[0]?.id ?? null;
}
