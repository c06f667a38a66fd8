import { defineConfig } from "wxt";

/** Where Redline runs: the popup opens it to sign in, and the extension calls its API. */
const redlineUrl = (process.env.WXT_REDLINE_URL ?? "http://localhost:3000").replace(/\/$/, "");
const redlineOrigin = new URL(redlineUrl).origin;

// The public key fixes the Chromium id (fncbnojmmgehlmnlhmhffmaikeogdidf, @redline/shared EXTENSION_ID), so
// the server knows the extension's origin (EXTENSION_ORIGINS) for an unpacked build too.
const KEY =
  "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAzJmN3B41JZd5I0SObzIXDSAo9WDEdHxbBjB1x4JKmuD6wSD3n9Gp7D9JBgLb89B7u36kKVUnl05miuS29NyWNfx+VDT1YvR2hHu0druTxoUJdnZWRroYeZPt9UhVwKdA8Lh10YQMIOka8vWwttqmY1JUBxzw5vrMxQHIWSHQS1BPxczCBNlhC6nypSwb3TaXRu95NFVh8dPT/AfDaq7rC7k29CP0LTGxf0bYfvA9zj+Wj4WRZkB7OYM8khX29+hKxhifihRiLxe5UsYRYBg4OfAguQmsaibBYhmXtftNV4JGWxxWeCkUCUkyGcdrtCu1r7izK6TU5BL88cV9BuwGTwIDAQAB";

/** Builds for tests only: more hosts the extension may read without a click (their fixture sites). */
const extraHosts = (process.env.WXT_EXTRA_HOST_PERMISSIONS ?? "").split(",").filter(Boolean);

export default defineConfig({
  outDir: process.env.WXT_OUT_DIR ?? "dist",
  manifestVersion: 3,
  manifest: ({ browser }) => ({
    name: "Redline",
    description: "Add the page you are on — signed in, as you see it — to a Redline project.",
    // activeTab by default: the page is read when the person asks (popup, menu, shortcut). Every page's
    // thread count needs the address of every tab: asked for in the popup when wanted (optional).
    permissions: ["activeTab", "scripting", "storage", "contextMenus"],
    optional_permissions: ["tabs"],
    // No host permission for Redline itself: its calls are CORS requests, so the browser always sends the
    // extension's Origin, which is how the server tells them from anyone else's (ADR 0037).
    ...(extraHosts.length > 0 && { host_permissions: extraHosts }),
    icons: { 16: "icon/16.png", 32: "icon/32.png", 48: "icon/48.png", 128: "icon/128.png" },
    action: { default_title: "Add to Redline", default_icon: { 16: "icon/16.png", 32: "icon/32.png" } },
    commands: {
      "add-page": {
        suggested_key: { default: "Alt+Shift+R" },
        description: "Add this page to Redline",
      },
    },
    // The app loads the icon to tell that the extension is installed (SPEC §7), from its own origin only.
    web_accessible_resources: [{ resources: ["icon/16.png"], matches: [`${redlineOrigin}/*`] }],
    ...(browser === "firefox"
      ? { browser_specific_settings: { gecko: { id: "extension@redline.app", strict_min_version: "128.0" } } }
      : // The app tells the extension at once that the person approved it (Chromium; Firefox polls).
        { key: KEY, externally_connectable: { matches: [`${redlineOrigin}/*`] } }),
  }),
});
