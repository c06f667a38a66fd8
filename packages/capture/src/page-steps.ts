/**
 * The in-page stages of a capture, each a function evaluated in the captured page. They run in the
 * page's main world, so they only read and scroll; nothing here is trusted for sanitizing.
 */
import type { BrowserContext, Page } from "playwright-core";
import { inPage } from "./in-page.ts";

/**
 * Switches native lazy images and iframes to eager (which loads them without any scrolling), then,
 * when the page could load content on scroll (`scroll`: an IntersectionObserver or scroll listener
 * exists, see page-activity.ts), scrolls down a viewport at a time so those loaders fire, and back
 * to the top. Returns whether it did anything that could have started a load.
 */
export async function sweep(page: Page, options: { scroll: boolean; capMs: number }): Promise<boolean> {
  return page.evaluate(
    inPage(async ({ scroll, capMs }: { scroll: boolean; capMs: number }) => {
      const lazy = document.querySelectorAll<HTMLImageElement | HTMLIFrameElement>(
        "img[loading=lazy], iframe[loading=lazy]",
      );
      for (const element of lazy) element.loading = "eager";
      if (!scroll) return lazy.length > 0;
      const start = performance.now();
      const root = document.scrollingElement ?? document.documentElement;
      const step = Math.max(200, innerHeight - 50);
      let y = 0;
      while (y + innerHeight < root.scrollHeight && performance.now() - start < capMs) {
        y += step;
        scrollTo(0, y);
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 40)));
      }
      if (y > 0) {
        scrollTo(0, 0);
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      }
      return true;
    }, options),
  );
}

/** Waits for web fonts (document.fonts.ready) in the page and its same-origin frames. */
export async function fontsReady(page: Page, capMs: number): Promise<void> {
  await Promise.all(
    page
      .frames()
      .map((frame) =>
        frame
          .evaluate(
            inPage(
              (cap: number) =>
                Promise.race([
                  document.fonts.ready.then(() => undefined),
                  new Promise((resolve) => setTimeout(resolve, cap)),
                ]),
              capMs,
            ),
          )
          .catch(() => undefined),
      ),
  );
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
const SINGLE_FILE_OPTIONS = {
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
  networkTimeout: 15_000,
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
        // of the page before it is serialised; the live site is not touched.
        const proto = Document.prototype;
        const named = proto.querySelectorAll.call(
          document,
          "form[name], img[name], embed[name], object[name], iframe[name], frame[name], img[id], embed[id], object[id]",
        );
        for (const element of Array.from(named)) {
          for (const attribute of ["name", "id"]) {
            const value = element.getAttribute(attribute);
            if (value && (value in proto || value in globalThis))
              element.setAttribute(attribute, `redline-${value}`);
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
 * to its first screen.
 */
export async function screenshotFullPage(context: BrowserContext, page: Page): Promise<Buffer> {
  const cdp = await context.newCDPSession(page);
  try {
    const { cssContentSize, cssLayoutViewport } = await cdp.send("Page.getLayoutMetrics");
    const shot = (width: number, height: number, beyond: boolean) =>
      cdp.send("Page.captureScreenshot", {
        format: "png",
        clip: { x: 0, y: 0, width, height, scale: 1 },
        captureBeyondViewport: beyond,
      });
    const full = await shot(Math.ceil(cssContentSize.width), Math.ceil(cssContentSize.height), true).catch(
      () => shot(cssLayoutViewport.clientWidth, cssLayoutViewport.clientHeight, false),
    );
    return Buffer.from(full.data, "base64");
  } finally {
    await cdp.detach().catch(() => {});
  }
}
