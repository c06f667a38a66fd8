/**
 * A slide drawn off screen with Konva (the editor's own stage is react-konva): the strip's 500×350
 * thumbnails, PNG export and the PDF's pages. Images are loaded once per tab and shared.
 */
import { layeredObjects, SLIDE_SIZE, type Slide, type SlideText } from "@redline/shared";
import Konva from "konva";

const images = new Map<string, Promise<HTMLImageElement | null>>();

/** An image by its URL, loaded once (null when it cannot be). */
export function loadImage(src: string): Promise<HTMLImageElement | null> {
  let made = images.get(src);
  if (!made) {
    made = new Promise((resolve) => {
      const image = new Image();
      image.onload = () => resolve(image);
      image.onerror = () => resolve(null);
      image.src = src;
    });
    images.set(src, made);
  }
  return made;
}

/**
 * The node of a slide object by its id. Never a `#id` selector: Konva's selectors know no CSS escapes, and
 * an id that begins with a digit (most of ours: hex) needs one, so such an object was never found — a mouse
 * drag of it was not saved and the Transformer never held it.
 */
export function objectNode(container: Konva.Container, id: string): Konva.Node | undefined {
  return container.findOne((node: Konva.Node) => node.hasName("object") && node.id() === id);
}

/** Konva's font style for a text: weight and italics in one string. */
export function fontStyleOf(text: Pick<SlideText, "fontWeight" | "italic">): string {
  return `${text.italic ? "italic " : ""}${text.fontWeight}`;
}

/** Draws a slide `width` pixels wide (its 10:7 height follows) and returns the canvas. */
export async function renderSlide(slide: Slide, width: number): Promise<HTMLCanvasElement> {
  const container = document.createElement("div");
  const stage = new Konva.Stage({ container, ...SLIDE_SIZE });
  const layer = new Konva.Layer();
  stage.add(layer);
  layer.add(new Konva.Rect({ x: 0, y: 0, ...SLIDE_SIZE, fill: "#ffffff" }));
  for (const object of layeredObjects(slide)) {
    const common = { x: object.x, y: object.y, rotation: object.rotation, width: object.width };
    if (object.kind === "image") {
      const image = await loadImage(object.src);
      if (image) layer.add(new Konva.Image({ ...common, height: object.height, image }));
    } else {
      layer.add(
        new Konva.Text({
          ...common,
          text: object.text,
          fontFamily: object.fontFamily,
          fontSize: object.fontSize,
          fontStyle: fontStyleOf(object),
          textDecoration: object.underline ? "underline" : "",
          fill: object.fill,
          align: object.align,
        }),
      );
    }
  }
  const canvas = stage.toCanvas({ pixelRatio: width / SLIDE_SIZE.width });
  stage.destroy();
  return canvas;
}

/** The strip's thumbnail (SPEC §9: 500×350) as a data URL. */
export async function thumbnailOf(slide: Slide): Promise<string> {
  const canvas = await renderSlide(slide, 500);
  return canvas.toDataURL("image/jpeg", 0.8);
}
