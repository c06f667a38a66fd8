/**
 * The script injected into every frame of the captured page, before the page's own scripts:
 * SingleFile's hooks (they record FontFace objects and worklets created by script), a hook that
 * keeps closed shadow roots reachable for the serializer, and SingleFile itself, bundled once per
 * process with esbuild from the `single-file-core` package (its ES modules are not browser-loadable
 * as a classic init script).
 *
 * SingleFile downloads stylesheets, images and fonts again while it serializes. Its `fetch` is
 * pointed at a binding (`FETCH_BINDING`) answered by Node from the bytes the page already received
 * (see capturer.ts), so serialization costs no second download, is not subject to CORS, and goes
 * through the same SSRF guard as everything else.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { Plugin } from "esbuild";

export const FETCH_BINDING = "__redlineFetch";

const require = createRequire(import.meta.url);

let script: Promise<string> | undefined;

/**
 * The init script source (cached for the life of the process). The built CLI (dist/cli.js) finds it
 * prebuilt beside itself (build.mjs); running from source, it is bundled on first use.
 */
export function singleFileInitScript(): Promise<string> {
  script ??= readFile(path.join(import.meta.dirname, PREBUILT_INIT_SCRIPT), "utf8").catch(() =>
    buildInitScript(),
  );
  return script;
}

/** The file name of the prebuilt init script, next to the built CLI. */
export const PREBUILT_INIT_SCRIPT = "single-file-init.js";

/**
 * SingleFile itself as one minified classic script defining `globalThis.singlefile` — the capture core
 * the init script wraps, and the one the browser extension injects into the user's tab (apps/extension).
 */
export async function buildSingleFileBundle(): Promise<string> {
  // Loaded only when bundling: the built CLI reads the prebuilt script and never needs esbuild.
  const { build } = await import("esbuild");
  const bundle = await build({
    stdin: {
      contents: `import * as singlefile from "single-file-core/single-file.js"; globalThis.singlefile = singlefile;`,
      resolveDir: import.meta.dirname,
    },
    bundle: true,
    format: "iife",
    minify: true,
    write: false,
    logLevel: "silent",
    target: "chrome120",
    plugins: [unusedModules],
  });
  return bundle.outputFiles[0]?.text ?? "";
}

export async function buildInitScript(): Promise<string> {
  const hooks = await readFile(
    require.resolve("single-file-core/processors/hooks/content/content-hooks-frames-web.js"),
    "utf8",
  );
  const singleFile = await buildSingleFileBundle();
  // Runs in every frame at document start; a frame that cannot run it (sandboxed) is skipped.
  // The built-ins are bound as they are at document start: a page that later replaces a global
  // (window.Promise = its own, window.Map = a polyfill) cannot break its own capture.
  return `((${BUILTINS.join(", ")}) => {
if (globalThis.__redlineCapture) return;
globalThis.__redlineCapture = true;
const __name = (f) => f;
${closedShadowRootHook}
try { ${hooks} } catch {}
${singleFile}
(${initSingleFile.toString()})(${JSON.stringify(FETCH_BINDING)});
})(${BUILTINS.map((name) => `globalThis.${name}`).join(", ")});`;
}

/** Globals SingleFile and our hooks use that pages are known to replace (polyfills, old libraries). */
const BUILTINS = [
  "Promise",
  "Map",
  "Set",
  "WeakMap",
  "WeakSet",
  "Symbol",
  "URL",
  "JSON",
  "Array",
  "Object",
  "Math",
  "Number",
  "String",
  "RegExp",
  "Error",
  "TypeError",
  "Headers",
  "Uint8Array",
  "TextEncoder",
  "TextDecoder",
  "Blob",
  "FileReader",
  "DOMParser",
  "XMLSerializer",
];

/**
 * Parts of SingleFile a capture never runs, left out of the bundle: compiling them in every new page
 * was most of SingleFile's start-up cost. The file-name template engine (360 kB; a capture needs no
 * file name) and the zip library (80 kB; only for `compressContent` archives, which we never ask for).
 */
const UNUSED_MODULES: Record<string, string> = {
  "modules/template-formatter.js": `export const formatFilename = async () => "snapshot.html";
export const evalTemplate = async () => "";`,
  "vendor/zip/zip.js": `const unavailable = () => { throw new Error("zip archives are not built by Redline"); };
export { unavailable as configure, unavailable as BlobReader, unavailable as TextReader,
  unavailable as ZipWriter, unavailable as Uint8ArrayWriter };`,
};

const unusedModules: Plugin = {
  name: "redline-unused-single-file-modules",
  setup(build) {
    build.onLoad({ filter: /single-file-core[\\/].*\.js$/ }, (args) => {
      const path = args.path.replaceAll("\\", "/");
      const stub = Object.entries(UNUSED_MODULES).find(([suffix]) =>
        path.endsWith(`single-file-core/${suffix}`),
      );
      return stub ? { contents: stub[1], loader: "js" } : undefined;
    });
  },
};

/** Closed shadow roots stay closed to the page but visible to SingleFile's getShadowRoot. */
const closedShadowRootHook = `{
const roots = new WeakMap();
const attach = Element.prototype.attachShadow;
Element.prototype.attachShadow = function (init) {
  const root = attach.call(this, init);
  roots.set(this, root);
  return root;
};
Object.defineProperty(Element.prototype, "openOrClosedShadowRoot", {
  configurable: true,
  get() { return roots.get(this) || this.shadowRoot; },
});
}`;

interface BindingResult {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: string; // base64
}

// Serialized with toString() into the page: no closures, no imports.
function initSingleFile(bindingName: string): void {
  const scope = globalThis as unknown as Record<string, unknown>;
  const sf = scope.singlefile as { init: (options: unknown) => void };
  const decode = (base64: string): Uint8Array => {
    const binary = atob(base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  };
  sf.init({
    fetch: async (url: string) => {
      const binding = scope[bindingName] as ((url: string) => Promise<BindingResult | null>) | undefined;
      const result = binding ? await binding(url) : null;
      if (!result) throw new TypeError(`Failed to fetch ${url}`);
      const bytes = decode(result.body);
      return {
        url: result.url,
        status: result.status,
        headers: new Headers(result.headers),
        arrayBuffer: async () => bytes.buffer,
      };
    },
  });
}

export { SINGLE_FILE_OPTIONS } from "./page-steps.ts";
