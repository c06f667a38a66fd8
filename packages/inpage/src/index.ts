/**
 * @redline/inpage — the in-page kit: what every script we run inside someone else's page shares (the
 * overlay in a snapshot, the widget on a customer's site, later the extension). The page is hostile and
 * may have run first: the kit's DOM access is taken from the prototypes once, at start (safe.ts); its UI
 * sits in the shadow root of one namespaced element (host.ts); its one global, which also says it has
 * started, cannot be faked by an element's id (global.ts). See docs/adr/0020.
 */
export { isStarted, setGlobal } from "./global.ts";
export { createShadowHost, mountHost, type ShadowHost } from "./host.ts";
export {
  DRAG_THRESHOLD,
  type Picked,
  type PickOptions,
  pageElementAt,
  pick,
  type Region,
  regionBetween,
} from "./picker.ts";
export * from "./safe.ts";
