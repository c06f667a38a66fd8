/**
 * Writes public/single-file.js before each build: SingleFile as the server's capture core bundles it
 * (packages/capture `buildSingleFileBundle`), with the same serialization options, for the extension to
 * inject into the user's tab. One definition: what the extension serializes is what a capture would.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { buildSingleFileBundle, SINGLE_FILE_OPTIONS } from "@redline/capture/single-file";

const out = path.join(import.meta.dirname, "../public/single-file.js");
await mkdir(path.dirname(out), { recursive: true });
const bundle = await buildSingleFileBundle();
await writeFile(
  out,
  `${bundle}\nglobalThis.__redlineSingleFileOptions = ${JSON.stringify(SINGLE_FILE_OPTIONS)};\n`,
);
