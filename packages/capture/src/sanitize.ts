/**
 * Makes SingleFile's output inert and self-contained. It runs in an isolated world of the captured
 * page's frame (`sanitizeInIsolatedWorld`): a JavaScript realm of its own, which the page's scripts
 * cannot reach or patch (their DOMParser, prototypes and globals are not its), parsing into a
 * document of its own without a browsing context (nothing in it runs or loads). So the parsing is the
 * browser's own and the same the viewer will do, without a second renderer process to start
 * (ADR 0018).
 *
 * Removed: scripts, noscript, <base>, meta refresh / CSP / set-cookie, on* handlers, javascript: and
 * data: document navigations (links become "#", so they keep their link styling; forms lose the
 * action), `target`/`formtarget` (nothing opens outside the frame), <link> hints to the live site,
 * ping. Remote URLs inside CSS strings of image-set() and in url() of any attribute (SVG paint
 * servers, filters, masks, markers) are dropped. Names and ids that named access would turn into
 * properties shadowing `document`/`window` members (<img name="createElement">) are prefixed.
 * `loading=lazy` becomes eager. Any resource reference that still points at the network (http(s),
 * protocol-relative) is dropped, so the snapshot can never load from the live site; a link to
 * another page becomes "#" (or its fragment) with its address kept in data-redline-href, so neither
 * a click nor a prefetch reaches the live site.
 * Iframes carry their snapshot in `srcdoc` (sanitized recursively). Declarative shadow roots
 * (<template shadowrootmode>) are walked through `.content`. A canvas keeps its element (so CSS
 * that targets `canvas` still applies) with its pixels as a background image (SingleFile's way).
 *
 * The viewer must render snapshots with scripting enabled — e.g. served with CSP
 * `script-src 'none'` rather than in an iframe sandbox without allow-scripts — because a <canvas>
 * in a document without scripting renders its fallback content instead of its background.
 */

import type { BrowserContext, Page } from "playwright-core";
import { CaptureError } from "./errors.ts";
import { inPageFunction } from "./in-page.ts";

/** Returns the sanitized document. Serialized into the page with toString(): self-contained. */
export function sanitizeSnapshot(html: string): string {
  const REMOTE = /^\s*(?:https?:)?\/\//i;
  const CSS_REMOTE_URL = /url\(\s*(["']?)\s*((?:https?:)?\/\/[^"')]*)\1\s*\)/gi;
  const CSS_REMOTE_IMPORT = /@import\s+(["'])\s*(?:https?:)?\/\/[^"']*\1[^;]*;?/gi;
  const RESOURCE_ATTRIBUTES = ["src", "poster", "data", "background", "lowsrc"];
  // A srcset candidate list; a data: candidate may itself contain ",//" (base64), so only a URL at
  // the start or after whitespace counts.
  const REMOTE_IN_SRCSET = /(?:^|\s)(?:https?:)?\/\/|,\s*https?:\/\//i;
  const KEEP_HTTP_EQUIV = new Set(["content-type", "x-ua-compatible"]);
  const EMBEDDERS = new Set(["iframe", "frame", "embed", "object"]);
  const isScriptUrl = (value: string) =>
    // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers drop C0 controls inside a URL scheme
    /^(?:javascript|vbscript):/i.test(value.replace(/[\u0000-\u0020]/g, ""));

  // image-set() also takes plain strings as image URLs: a remote one inside it goes too.
  const IMAGE_SET = /((?:-webkit-)?image-set\()([^)]*)\)/gi;
  const REMOTE_STRING = /(["'])\s*(?:https?:)?\/\/[^"']*\1/g;
  const cleanCss = (css: string): string =>
    css
      .replace(CSS_REMOTE_IMPORT, "")
      .replace(CSS_REMOTE_URL, "none")
      .replace(
        IMAGE_SET,
        (_match, start: string, inner: string) => `${start}${inner.replace(REMOTE_STRING, '""')})`,
      );
  // Navigations that would open a document of their own: a data: document runs its own scripts.
  const isDocumentUrl = (value: string) => isScriptUrl(value) || /^\s*data:/i.test(value);
  const NAVIGATIONS: Record<string, string[]> = {
    href: ["a", "area"],
    "xlink:href": ["a"],
    action: ["form"],
    formaction: ["button", "input"],
  };
  // Elements the document exposes by name (named access): such a name must not shadow a property of
  // `document` or `window` that a script — our overlay — reads (e.g. <img name="createElement">).
  // What a blank document and window have, read without the captured page's own named elements: its
  // `document` and `window` expose those (named access) in every world.
  const NAMED = new Set(["form", "img", "embed", "object", "iframe", "frame"]);
  const blank = new DOMParser().parseFromString("", "text/html");
  const windowMembers = new Set(
    [globalThis, Window.prototype, EventTarget.prototype, Object.prototype].flatMap((object) =>
      Object.getOwnPropertyNames(object),
    ),
  );
  const shadows = (value: string) => value !== "" && (value in blank || windowMembers.has(value));

  const cleanElement = (element: Element) => {
    const tag = element.localName;
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase();
      const value = attribute.value;
      if (
        name.startsWith("on") ||
        name === "ping" ||
        name === "nonce" ||
        name === "target" ||
        name === "formtarget"
      )
        element.removeAttribute(attribute.name);
      else if (name === "href" && (tag === "a" || tag === "area") && REMOTE.test(value)) {
        // A snapshot never leaves itself: the link keeps its address for reviewers (data-redline-href)
        // and its fragment, so in-page anchors still scroll.
        element.setAttribute("data-redline-href", value);
        const hash = value.indexOf("#");
        element.setAttribute("href", hash === -1 ? "#" : value.slice(hash));
      } else if (NAVIGATIONS[name]?.includes(tag) && isDocumentUrl(value))
        if (tag === "a" || tag === "area") element.setAttribute(attribute.name, "#");
        else element.removeAttribute(attribute.name);
      else if ((name === "name" && NAMED.has(tag)) || (name === "id" && (NAMED.has(tag) || tag === "object")))
        if (shadows(value)) element.setAttribute(attribute.name, `redline-${value}`);
        else continue;
      else if (isScriptUrl(value) || (/^(?:to|from|values|by)$/.test(name) && /script:/i.test(value)))
        if (name === "href" && (tag === "a" || tag === "area")) element.setAttribute(attribute.name, "#");
        else element.removeAttribute(attribute.name);
      else if (name === "style") element.setAttribute("style", cleanCss(value));
      // A data: document in a frame or plugin element could run script; SingleFile uses srcdoc.
      else if (EMBEDDERS.has(tag) && (name === "src" || name === "data") && /^\s*data:/i.test(value))
        element.removeAttribute(attribute.name);
      else if (
        (RESOURCE_ATTRIBUTES.includes(name) && REMOTE.test(value)) ||
        ((name === "srcset" || name === "imagesrcset") && REMOTE_IN_SRCSET.test(value))
      ) {
        element.removeAttribute(attribute.name);
      } else if (
        (name === "href" || name === "xlink:href") &&
        tag !== "a" &&
        tag !== "area" &&
        REMOTE.test(value)
      ) {
        element.removeAttribute(attribute.name);
      } else if (/url\(/i.test(value)) {
        // SVG paint servers, filters, masks, markers and cursors name resources with url(…).
        element.setAttribute(attribute.name, cleanCss(value));
      }
    }
    if (tag === "style") element.textContent = cleanCss(element.textContent ?? "");
    if (element.getAttribute("loading") === "lazy") element.setAttribute("loading", "eager");
    if (tag === "iframe" || tag === "frame") {
      const srcdoc = element.getAttribute("srcdoc");
      if (srcdoc !== null) element.setAttribute("srcdoc", sanitizeDocument(srcdoc));
      else if (!element.hasAttribute("src")) element.setAttribute("srcdoc", "");
      // No scripts are left to run. Scripting stays enabled (a <canvas> only paints its background,
      // which holds its pixels, while scripting is enabled) and same-origin lets the viewer's overlay
      // reach into the frame; the sandbox still blocks top navigation, popups and forms.
      element.setAttribute("sandbox", "allow-same-origin allow-scripts");
    }
    if (tag === "template") cleanTree((element as HTMLTemplateElement).content);
  };

  const cleanTree = (root: ParentNode) => {
    for (const element of Array.from(
      root.querySelectorAll("script, noscript, base, link, meta[http-equiv]"),
    )) {
      const tag = element.localName;
      if (tag === "meta") {
        if (!KEEP_HTTP_EQUIV.has((element.getAttribute("http-equiv") ?? "").toLowerCase())) element.remove();
      } else if (tag === "link") {
        const href = element.getAttribute("href") ?? "";
        if (REMOTE.test(href) || !/\bstylesheet\b/i.test(element.getAttribute("rel") ?? "")) element.remove();
      } else element.remove();
    }
    for (const element of Array.from(root.querySelectorAll("*"))) {
      // A hostile page may end up looking wrong, never make the capture fail: an element that cannot
      // be cleaned is dropped.
      try {
        cleanElement(element);
      } catch {
        element.remove();
      }
    }
  };

  const sanitizeDocument = (source: string): string => {
    const doc = new DOMParser().parseFromString(source, "text/html");
    cleanTree(doc);
    const type = doc.doctype;
    const doctype = type
      ? `<!DOCTYPE ${type.name}${type.publicId ? ` PUBLIC "${type.publicId}"` : ""}${
          type.systemId ? `${type.publicId ? "" : " SYSTEM"} "${type.systemId}"` : ""
        }>`
      : "";
    return doctype + doc.documentElement.outerHTML;
  };

  return sanitizeDocument(html);
}

/**
 * Runs `sanitizeSnapshot` in an isolated world of the captured page's main frame (see the header).
 * A page that navigated meanwhile has a new document: the world is made again there, once.
 */
export async function sanitizeInIsolatedWorld(
  context: BrowserContext,
  page: Page,
  html: string,
): Promise<string> {
  const cdp = await context.newCDPSession(page);
  const run = async () => {
    const { frameTree } = await cdp.send("Page.getFrameTree");
    const { executionContextId } = await cdp.send("Page.createIsolatedWorld", {
      frameId: frameTree.frame.id,
      worldName: "redline-sanitizer",
    });
    const { result, exceptionDetails } = await cdp.send("Runtime.callFunctionOn", {
      functionDeclaration: inPageFunction(sanitizeSnapshot),
      executionContextId,
      arguments: [{ value: html }],
      returnByValue: true,
    });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    if (typeof result.value !== "string") throw new Error("The sanitizer returned no document");
    return result.value;
  };
  try {
    return await run().catch(run);
  } catch (error) {
    throw new CaptureError("serialize-failed", "Could not sanitize the snapshot", { cause: error });
  } finally {
    await cdp.detach().catch(() => {});
  }
}
