// What the browser bundles' builds (packages/overlay, packages/widget: `node build.mjs`) share: the esbuild
// plugin that keeps @redline/shared out of the bundle but for what is used, and the size line they print.
import path from "node:path";
import { gzipSync } from "node:zlib";

const sharedSource = path.join(import.meta.dirname, "src") + path.sep;

// @redline/shared's modules only declare things, but esbuild cannot know that its zod schemas are
// pure: without this, importing the frame protocol or two constants from the package index would bundle
// every API schema and classic zod with them (~90 KB gzip instead of ~6 KB for the overlay).
export const sharedIsPure = {
  name: "shared-is-pure",
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === "shared-is-pure") return undefined;
      const result = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: "shared-is-pure",
      });
      if (result.errors.length > 0 || !result.path.startsWith(sharedSource)) return undefined;
      return { path: result.path, sideEffects: false };
    });
  },
};

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** "built <file>: <raw> KB raw, <gzip> KB gzip" for a built file's bytes. */
export const builtLine = (file, code) =>
  `built ${file}: ${kb(code.length)} raw, ${kb(gzipSync(code).length)} gzip`;
