/** Writes the extension's icons (public/icon/<size>.png): Redline's red pin on white. */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";

const dir = path.join(import.meta.dirname, "../public/icon");
await mkdir(dir, { recursive: true });
const svg = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#e5383b"/><path d="M16 6a7 7 0 0 0-7 7c0 5.2 7 13 7 13s7-7.8 7-13a7 7 0 0 0-7-7zm0 9.5a2.5 2.5 0 1 1 0-5 2.5 2.5 0 0 1 0 5z" fill="#fff"/></svg>`,
);
for (const size of [16, 32, 48, 128])
  await sharp(svg)
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(dir, `${size}.png`));
