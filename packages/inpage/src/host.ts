/**
 * The one element a kit adds to a page (`<redline-overlay>`, `<redline-widget>`), its UI in a shadow root.
 * We define the tag ourselves, as an empty custom element, so a page cannot later give it a constructor,
 * callbacks or an attachShadow of its own. A page that defined the name first (with `disabledFeatures`,
 * a `connectedCallback` that removes it, an attachShadow that throws…) keeps its element; ours takes the
 * first free `<tag>-<n>`.
 */
import { appendChild, attachShadow, createElement, method } from "./safe.ts";

// Taken at start, like the rest of the kit (here, so a bundle without a host has none of it).
const registry = globalThis.customElements;
const definitionOf = /* @__PURE__ */ method("CustomElementRegistry", "get");
const define = /* @__PURE__ */ method("CustomElementRegistry", "define");
const ElementBase = globalThis.HTMLElement;

export interface ShadowHost {
  host: HTMLElement;
  root: ShadowRoot;
}

/** A new host named after `tag`, not yet in the document. */
export function createShadowHost(doc: Document, tag: string, mode: ShadowRootMode = "open"): ShadowHost {
  let name = tag;
  for (let n = 1; definitionOf(registry, name); n++) name = `${tag}-${n}`;
  define(registry, name, class extends ElementBase {});
  const host = createElement(doc, name);
  return { host, root: attachShadow(host, { mode }) };
}

/** Puts `host` in `parent` through the kit's own appendChild. */
export const mountHost = (host: HTMLElement, parent: Node) => appendChild(parent, host);
