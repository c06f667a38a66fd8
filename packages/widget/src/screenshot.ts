/**
 * The screenshot chunk: the visible viewport drawn by snapdom (a DOM renderer; never html2canvas, which
 * fails on modern colours), or pixel-exact through the browser's own tab capture when the reporter asks.
 * Privacy either way: typed values never drawn, `data-redline-mask` elements blurred — in snapdom's clone
 * before it renders (its layout can differ from the page by a few pixels, so painting over the live
 * boxes afterwards could miss), and over the pixels of a tab capture (which match the page exactly).
 */
import { snapdom } from "@zumer/snapdom";

export interface Shot {
  canvas: HTMLCanvasElement;
  /** Canvas pixels per CSS pixel. */
  scale: number;
}

/** Fields whose value is typed text (masked); buttons, checkboxes and the like show no secret. */
const VALUE_FIELDS =
  'input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=submit]):not([type=button]):not([type=reset]):not([type=range]):not([type=color]):not([type=image]),textarea,select,[contenteditable=""],[contenteditable=true]';
const MASK_SELECTOR = "[data-redline-mask]";

const hide = (text: string) => text.replace(/\S/g, "•");

/** A snapdom plugin: in the clone, typed values become dots and masked elements lose their text and blur. */
const maskClone = {
  name: "redline-mask",
  afterClone(context: { clone?: HTMLElement | SVGElement | null }) {
    const clone = context.clone;
    if (!clone) return;
    for (const field of clone.querySelectorAll<Element>(VALUE_FIELDS)) {
      if (field instanceof HTMLTextAreaElement) {
        // Fixed dots: not even the words' lengths show.
        field.textContent = field.value || field.textContent ? "••••••" : "";
        field.value = field.textContent;
      } else if (field instanceof HTMLInputElement) {
        const masked = field.value || field.getAttribute("value") ? "••••••" : "";
        field.setAttribute("value", masked);
        field.value = masked;
      } else if (field instanceof HTMLSelectElement) {
        for (const option of field.options) option.textContent = hide(option.textContent ?? "");
      } else {
        for (const node of textNodes(field)) node.textContent = hide(node.textContent ?? "");
      }
    }
    for (const element of clone.querySelectorAll<HTMLElement>(MASK_SELECTOR)) {
      for (const node of textNodes(element)) node.textContent = hide(node.textContent ?? "");
      element.style.setProperty("filter", "blur(6px)", "important");
    }
  },
};

/**
 * A snapdom plugin: the page's own top margins stay. Snapdom trims the top margins along the captured
 * element's first children (body, then a heading's default 0.67em), as it would for an element whose
 * children's margins collapse out of its box; but <html> is the root, whose children's margins stay inside
 * it, so everything was drawn that much too high. The cloned root keeps its own formatting context
 * (`flow-root`), so the restored margins collapse no further than they do on the page.
 */
const keepRootMargins = {
  name: "redline-root-margins",
  afterClone(context: { clone?: HTMLElement | SVGElement | null; nodeMap?: Map<Node, Node> }) {
    const root = context.clone;
    if (!(root instanceof HTMLElement)) return;
    root.style.setProperty("display", "flow-root", "important");
    const originalOf = new Map<Node, Node>();
    for (const [clone, original] of context.nodeMap ?? []) originalOf.set(clone, original);
    // Down the chain of first children from <body>, where the trimmed margins are.
    const firstShown = (parent: Element) =>
      [...parent.children].find((child) => !/^(SCRIPT|STYLE|LINK|META|TEMPLATE)$/.test(child.tagName)) as
        | HTMLElement
        | undefined;
    for (
      let clone: HTMLElement | undefined = root.querySelector("body") ?? undefined;
      clone;
      clone = firstShown(clone)
    ) {
      const original = originalOf.get(clone);
      if (clone.style.marginTop !== "0px" || !(original instanceof Element)) break;
      if (getComputedStyle(original).marginTop !== "0px") clone.style.removeProperty("margin-top");
    }
  },
};

function textNodes(root: Node): Text[] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  while (walker.nextNode()) nodes.push(walker.currentNode as Text);
  return nodes;
}

/**
 * What Chromium paints behind the document (CSS "canvas background": the root's background, else the
 * body's, else white); a page shorter than the viewport shows it below its content.
 */
function canvasBackground(): string {
  for (const element of [document.documentElement, document.body]) {
    if (!element) continue;
    const colour = getComputedStyle(element).backgroundColor;
    if (colour && colour !== "transparent" && !/rgba\([^)]*,\s*0\)$/.test(colour)) return colour;
  }
  return "#ffffff";
}

export async function captureDom(exclude: Element): Promise<Shot> {
  const scale = Math.min(window.devicePixelRatio || 1, 2);
  const canvas = await snapdom.toCanvas(document.documentElement, {
    clip: "viewport",
    dpr: scale,
    backgroundColor: canvasBackground(),
    exclude: [(element: Element) => element === exclude],
    excludeMode: "remove",
    placeholders: true,
    fast: "auto",
    plugins: [maskClone, keepRootMargins],
  });
  return { canvas, scale };
}

/** Pixel-exact: one frame of this tab through getDisplayMedia (the browser asks the reporter). */
export async function captureTab(): Promise<Shot> {
  const stream = await navigator.mediaDevices.getDisplayMedia({
    video: { displaySurface: "browser" },
    audio: false,
    preferCurrentTab: true,
  } as DisplayMediaStreamOptions);
  try {
    const video = document.createElement("video");
    video.muted = true;
    video.srcObject = stream;
    await video.play();
    // The first frames can still show the permission prompt fading out.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const canvas = document.createElement("canvas");
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext("2d")!.drawImage(video, 0, 0);
    return maskCanvas({ canvas, scale: video.videoWidth / innerWidth });
  } finally {
    for (const track of stream.getTracks()) track.stop();
  }
}

/** Covers every typed value and blurs every `data-redline-mask` element where it shows in the viewport. */
export function maskCanvas(shot: Shot): Shot {
  const { canvas, scale } = shot;
  const context = canvas.getContext("2d")!;
  const box = (element: Element) => {
    const rect = element.getBoundingClientRect();
    return {
      x: Math.floor(rect.left * scale),
      y: Math.floor(rect.top * scale),
      width: Math.ceil(rect.width * scale),
      height: Math.ceil(rect.height * scale),
    };
  };
  const visible = (area: { x: number; y: number; width: number; height: number }) =>
    area.width > 0 &&
    area.height > 0 &&
    area.x < canvas.width &&
    area.y < canvas.height &&
    area.x + area.width > 0 &&
    area.y + area.height > 0;

  for (const element of document.querySelectorAll(MASK_SELECTOR)) {
    const area = box(element);
    if (!visible(area)) continue;
    // Pixelate, then blur: no text survives, the layout stays recognisable.
    const small = document.createElement("canvas");
    small.width = Math.max(1, Math.round(area.width / 12));
    small.height = Math.max(1, Math.round(area.height / 12));
    small
      .getContext("2d")!
      .drawImage(canvas, area.x, area.y, area.width, area.height, 0, 0, small.width, small.height);
    context.save();
    context.beginPath();
    context.rect(area.x, area.y, area.width, area.height);
    context.clip();
    context.imageSmoothingEnabled = true;
    context.filter = `blur(${Math.round(6 * scale)}px)`;
    context.drawImage(small, area.x - 8, area.y - 8, area.width + 16, area.height + 16);
    context.restore();
  }
  for (const element of document.querySelectorAll(VALUE_FIELDS)) {
    const field = element as HTMLInputElement;
    const hasValue = "value" in field ? field.value !== "" : (element.textContent ?? "") !== "";
    if (!hasValue) continue;
    const area = box(element);
    if (!visible(area)) continue;
    const inset = Math.round(2 * scale);
    context.fillStyle = "#eceef1";
    context.fillRect(area.x + inset, area.y + inset, area.width - 2 * inset, area.height - 2 * inset);
    context.fillStyle = "#8a9099";
    context.font = `${Math.round(12 * scale)}px system-ui, sans-serif`;
    context.textBaseline = "middle";
    context.fillText(
      "••••••",
      area.x + 6 * scale,
      area.y + area.height / 2,
      Math.max(0, area.width - 12 * scale),
    );
  }
  return shot;
}
