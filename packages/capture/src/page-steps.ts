/**
 * The in-page stages of a capture, each a function evaluated in the captured page. They run in the
 * page's main world, so they only read and scroll; nothing here is trusted for sanitizing.
 */
import type { BrowserContext, Page } from "playwright-core";
import { inPage } from "./in-page.ts";
import { documentFrames, STATE, withinMs } from "./page-activity.ts";

/**
 * Switches native lazy images and iframes to eager (which loads them without any scrolling), then,
 * when the page could load content on scroll (`scroll`: an IntersectionObserver or scroll listener
 * exists, see page-activity.ts), scrolls down a viewport at a time so those loaders fire, and back
 * to the top. Returns whether it did anything that could have started a load, and whether it reached
 * the bottom before its cap (a page too long to sweep in time is captured partial: "rendering").
 *
 * Each position is held for two rendering updates: scroll listeners run in the first, the
 * intersection observers it computed have been called back by the second. A loader that defers its
 * work to a timer or idle callback (a throttle) is given 40 ms after the first update: the page's
 * activity hook counts what was scheduled meanwhile. (A fixed 40 ms at every position cost the
 * 9,000 px article of the benchmark 0.3 s.)
 */
export async function sweep(
  page: Page,
  options: { scroll: boolean; capMs: number },
): Promise<{ acted: boolean; reachedEnd: boolean }> {
  return page.evaluate(
    inPage(
      async ({ scroll, capMs, state }: { scroll: boolean; capMs: number; state: string }) => {
        const lazy = document.querySelectorAll<HTMLImageElement | HTMLIFrameElement>(
          "img[loading=lazy], iframe[loading=lazy]",
        );
        for (const element of lazy) element.loading = "eager";
        if (!scroll) return { acted: lazy.length > 0, reachedEnd: true };
        const start = performance.now();
        const root = document.scrollingElement ?? document.documentElement;
        const step = Math.max(200, innerHeight - 50);
        const scheduled = () =>
          (globalThis as unknown as Record<string, { scheduled: number } | undefined>)[state]?.scheduled;
        const frame = () =>
          new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now())));
        let y = 0;
        while (y + innerHeight < root.scrollHeight && performance.now() - start < capMs) {
          y += step;
          const before = scheduled();
          scrollTo(0, y);
          const rendered = await frame();
          await frame();
          const after = scheduled();
          if (before === undefined || after !== before) {
            const left = 40 - (performance.now() - rendered);
            if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
          }
        }
        const reachedEnd = y + innerHeight >= root.scrollHeight;
        if (y > 0) {
          scrollTo(0, 0);
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        }
        return { acted: true, reachedEnd };
      },
      { ...options, state: STATE },
    ),
  );
}

/**
 * Waits for web fonts (document.fonts.ready) and for the images that have a source but have not
 * finished loading or decoding (what the sweep just revealed), in the page and its same-origin frames,
 * at most `capMs`: the live screenshot shows them as the snapshot will.
 */
export async function fontsReady(page: Page, capMs: number): Promise<void> {
  await Promise.all(
    documentFrames(page).map((frame) =>
      // A frame with no document yet cannot be evaluated in (Playwright would wait for it forever).
      withinMs(
        frame
          .evaluate(
            inPage(
              (cap: number) =>
                Promise.race([
                  Promise.all([
                    document.fonts.ready,
                    ...Array.from(document.images)
                      .filter((image) => image.currentSrc && !image.complete)
                      .map((image) => image.decode().catch(() => undefined)),
                  ]).then(() => undefined),
                  new Promise((resolve) => setTimeout(resolve, cap)),
                ]),
              capMs,
            ),
          )
          .catch(() => undefined),
        capMs + 500,
        undefined,
      ),
    ),
  );
}

/**
 * Makes the live page what the snapshot will show, in every frame that answers (SPEC: what the
 * reviewer saw, frozen), the state Chromium's screenshots with animations disabled show:
 * - finite animations and transitions jump to their end; what a fill-forwards animation holds
 *   (a WAAPI slide-in, an element revealed from an inline `opacity: 0`) is written into the element's
 *   style (`commitStyles`), or for a pseudo-element into a rule; infinite animations are cancelled
 *   (their element's own style, the state they start from); then one sheet turns every animation and
 *   transition off, so the snapshot, which carries the page's keyframes, does not replay them;
 * - constructed sheets adopted with a `media` condition keep it as an `@media` block around their
 *   rules (SingleFile writes their rules out without the condition);
 * - an indeterminate checkbox is marked `data-redline-indeterminate` (the overlay restores it);
 * - a modal dialog or an open popover, shown in the browser's top layer (which HTML cannot say: the
 *   snapshot would show an ordinary dialog and a hidden popover), keeps its computed style, above the
 *   page, and its `::backdrop` becomes an element of ours, hidden on the live page while the element
 *   is still in the top layer (`freezeTopLayer`).
 * Returns how many animations it froze (0 when the page had none).
 */
export async function freezeForSnapshot(page: Page, capMs: number): Promise<number> {
  const counts = await Promise.all(
    documentFrames(page).map((frame) =>
      withinMs(
        frame.evaluate<number>(inPage(freezeInPage, null)).catch(() => 0),
        capMs,
        0,
      ),
    ),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}

function freezeInPage(): number {
  const roots: (Document | ShadowRoot)[] = [document];
  const collect = (root: Document | ShadowRoot) => {
    for (const element of Array.from(root.querySelectorAll("*"))) {
      const shadow = element.shadowRoot;
      if (shadow) {
        roots.push(shadow);
        collect(shadow);
      }
    }
  };
  collect(document);

  // Media conditions of adopted constructed sheets, kept inside the sheet's text.
  for (const root of roots) {
    for (const sheet of root.adoptedStyleSheets) {
      const media = sheet.media.mediaText;
      if (!media) continue;
      try {
        const rules = Array.from(sheet.cssRules, (rule) => rule.cssText).join("\n");
        sheet.replaceSync(`@media ${media} {\n${rules}\n}`);
        sheet.media.mediaText = "";
      } catch {
        // a sheet we cannot rewrite keeps its condition on the live page only
      }
    }
  }

  // Indeterminate checkboxes: a property HTML cannot carry; the overlay sets it again when served.
  for (const root of roots)
    for (const input of Array.from(root.querySelectorAll("input")))
      if (input.indeterminate) input.setAttribute("data-redline-indeterminate", "");

  // The top layer as ordinary elements (see `freezeForSnapshot`).
  const freezeTopLayer = (): void => {
    const shown = Array.from(document.querySelectorAll("dialog, [popover]")).filter((element) => {
      try {
        return element.matches(":modal") || element.matches(":popover-open");
      } catch {
        return false; // a browser without :modal or :popover-open has no such element either
      }
    });
    if (shown.length === 0) return;
    const TOP = 2147483647;
    const rules: string[] = [];
    shown.forEach((element, index) => {
      const id = String(index + 1);
      element.setAttribute("data-redline-top", id);
      const style = getComputedStyle(element);
      const declarations = Array.from(
        style,
        (name) => `${name}: ${style.getPropertyValue(name)} !important;`,
      );
      rules.push(`[data-redline-top="${id}"] { ${declarations.join(" ")} z-index: ${TOP} !important; }`);
      const backdrop = getComputedStyle(element, "::backdrop");
      const paints = ["background-color", "background-image", "backdrop-filter", "filter", "opacity"]
        .map((name) => [name, backdrop.getPropertyValue(name)] as const)
        .filter(([name, value]) => value !== "" && !(name === "opacity" && value === "1"));
      const visible = paints.some(
        ([name, value]) =>
          (name === "background-color" && value !== "rgba(0, 0, 0, 0)") ||
          ((name === "background-image" || name === "backdrop-filter") && value !== "none"),
      );
      if (!visible) return;
      const layer = document.createElement("redline-backdrop");
      layer.setAttribute("data-for", id);
      (document.body ?? document.documentElement).append(layer);
      rules.push(
        `redline-backdrop[data-for="${id}"] { display: block !important; position: fixed !important; inset: 0 !important; ` +
          `z-index: ${TOP - 1} !important; ${paints.map(([name, value]) => `${name}: ${value} !important;`).join(" ")} }`,
        // The live page still shows its own backdrop: ours only once the element is out of the top layer.
        `:root:has([data-redline-top="${id}"]:is(:modal, :popover-open)) redline-backdrop[data-for="${id}"] { display: none !important; }`,
      );
    });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(rules.join("\n"));
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  };
  freezeTopLayer();

  const animations = document.getAnimations();
  if (animations.length === 0) return 0;
  const pseudoRules = new Map<Document | ShadowRoot, string[]>();
  let marker = 0;
  const held: { animation: Animation; effect: KeyframeEffect }[] = [];
  for (const animation of animations) {
    const effect = animation.effect as KeyframeEffect | null;
    const timing = effect?.getComputedTiming();
    if (!effect || !timing || timing.endTime === Number.POSITIVE_INFINITY) {
      animation.cancel();
      continue;
    }
    try {
      animation.finish();
    } catch {
      animation.cancel();
      continue;
    }
    if (timing.fill === "forwards" || timing.fill === "both") held.push({ animation, effect });
  }
  for (const { animation, effect } of held) {
    const target = effect.target;
    if (!target) continue;
    if (!effect.pseudoElement) {
      try {
        animation.commitStyles();
      } catch {
        // an element not rendered has nothing to show
      }
      continue;
    }
    const properties = new Set<string>();
    for (const keyframe of effect.getKeyframes())
      for (const key of Object.keys(keyframe))
        if (!["offset", "computedOffset", "easing", "composite"].includes(key))
          properties.add(key === "cssFloat" ? "float" : key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
    const style = getComputedStyle(target, effect.pseudoElement);
    const declarations = [...properties]
      .map((property) => `${property}: ${style.getPropertyValue(property)} !important;`)
      .join(" ");
    const id = String(++marker);
    target.setAttribute("data-redline-frozen", id);
    const root = target.getRootNode() as Document | ShadowRoot;
    const rules = pseudoRules.get(root) ?? [];
    rules.push(`[data-redline-frozen="${id}"]${effect.pseudoElement} { ${declarations} }`);
    pseudoRules.set(root, rules);
  }
  for (const { animation } of held) animation.cancel();
  const off = "*, *::before, *::after { animation: none !important; transition: none !important; }";
  for (const root of roots) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync([off, ...(pseudoRules.get(root) ?? [])].join("\n"));
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }
  return animations.length;
}

export interface PageFacts {
  title: string;
  height: number;
}

export function pageFacts(page: Page): Promise<PageFacts> {
  return page.evaluate(
    inPage(
      () => ({
        title: document.title,
        height: Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
      }),
      null,
    ),
  );
}

/** SingleFile options: fidelity first, then size (see the header of capturer.ts). */
export const SINGLE_FILE_OPTIONS = {
  removeHiddenElements: false, // a menu hidden now is shown on hover in the snapshot
  removeUnusedStyles: false, // :hover / :focus / later-toggled classes must keep working
  removeUnusedFonts: true,
  removeAlternativeFonts: true, // woff2 wins over woff/ttf
  removeAlternativeMedias: false, // keeping print rules costs bytes; removing them parses every sheet twice
  removeAlternativeImages: true, // keep the displayed srcset/picture source (currentSrc)
  groupDuplicateImages: false, // assets are deduplicated by hash already
  removeFrames: false,
  removeImports: true,
  blockScripts: true,
  blockVideos: true, // a video becomes its current frame as poster, not a 100 MB asset
  blockAudios: true,
  saveFavicon: false,
  compressHTML: false,
  compressCSS: false,
  loadDeferredImages: false, // our own sweep already ran
  insertSingleFileComment: false,
  insertMetaCSP: false,
  saveOriginalURLs: false,
  resolveFragmentIdentifierURLs: false,
  // A resource still not answering after this long is left out (a page holding a request open
  // forever must not hold its capture): everything the page already loaded answers at once.
  networkTimeout: 8_000,
};

/** Runs SingleFile in the page and returns its HTML (resources inlined as data: URIs). */
export async function serializeWithSingleFile(page: Page, maxResourceMb: number): Promise<string> {
  return page.evaluate(
    inPage(
      async (options: Record<string, unknown>) => {
        const singlefile = (globalThis as unknown as { singlefile?: SingleFileApi }).singlefile;
        if (!singlefile) throw new Error("SingleFile is not loaded in the page");
        // Named access: <img name="createElement"> makes document.createElement that image, which would
        // break SingleFile (and later our overlay). Such names and ids are renamed in this tab's copy
        // of the page before it is serialised; the live site is not touched. What they would shadow is
        // read off a blank document (the page's own exposes every such name, `<img id="logo">` too,
        // which keeps its id) and the members a window inherits below its named elements.
        const proto = Document.prototype;
        const implementation = Object.getOwnPropertyDescriptor(proto, "implementation")?.get?.call(document);
        const blank: Document = (implementation as DOMImplementation).createHTMLDocument("");
        const shadows = (value: string) =>
          value in blank || value in EventTarget.prototype || value in Object.prototype;
        const named = proto.querySelectorAll.call(
          document,
          "form[name], img[name], embed[name], object[name], iframe[name], frame[name], img[id], embed[id], object[id]",
        );
        for (const element of Array.from(named)) {
          for (const attribute of ["name", "id"]) {
            const value = element.getAttribute(attribute);
            if (value && shadows(value)) element.setAttribute(attribute, `redline-${value}`);
          }
        }
        const url = Object.getOwnPropertyDescriptor(proto, "documentURI")?.get?.call(document) as string;
        const data = await singlefile.getPageData({ ...options, url });
        return data.content;
      },
      { ...SINGLE_FILE_OPTIONS, maxResourceSizeEnabled: true, maxResourceSize: maxResourceMb },
    ),
  );
}

interface SingleFileApi {
  getPageData(options: Record<string, unknown>): Promise<{ content: string }>;
}

/**
 * A full-page PNG of the live page, straight from the DevTools protocol. Same pixels as Playwright's
 * `page.screenshot({ fullPage: true })` (it sends the same `Page.captureScreenshot`), without its
 * preparation round trips into every frame (fonts have already been waited for; a caret may show),
 * which took ~50 ms per capture. A page taller than the compositor can paint in one go falls back
 * to its first screen. `fast`: PNG encoding set for speed (lossless like the default, larger).
 */
export async function screenshotFullPage(
  context: BrowserContext,
  page: Page,
  { fast = false }: { fast?: boolean } = {},
): Promise<Buffer> {
  const cdp = await context.newCDPSession(page);
  try {
    const { cssContentSize, cssLayoutViewport } = await cdp.send("Page.getLayoutMetrics");
    const shot = (width: number, height: number, beyond: boolean) =>
      cdp.send("Page.captureScreenshot", {
        format: "png",
        clip: { x: 0, y: 0, width, height, scale: 1 },
        captureBeyondViewport: beyond,
        optimizeForSpeed: fast, // the PNG encoder's speed, not the pixels
      });
    const full = await shot(Math.ceil(cssContentSize.width), Math.ceil(cssContentSize.height), true).catch(
      () => shot(cssLayoutViewport.clientWidth, cssLayoutViewport.clientHeight, false),
    );
    return Buffer.from(full.data, "base64");
  } finally {
    await cdp.detach().catch(() => {});
  }
}
