/** Image normalisation with sharp: every stored picture is re-encoded, so no upload is served as-is. */
import { createHash } from "node:crypto";
import { AVATAR_JPEG_QUALITY, AVATAR_SIZE_PX, MAX_UPLOAD_BYTES, MESSAGES } from "@redline/shared";
import sharp, { type Sharp } from "sharp";
import { BadRequestError, PayloadTooLargeError } from "./errors.ts";

export const THUMBNAIL = { width: 500, height: 350 } as const;

const SHAPES = {
  /** Avatars and resized sources: 500×500 JPEG quality 50 (SPEC §9). */
  avatar: { width: AVATAR_SIZE_PX, height: AVATAR_SIZE_PX, quality: AVATAR_JPEG_QUALITY, position: "centre" },
  /** Thumbnails: 500×350 JPEG, from the top of the page. */
  thumbnail: { ...THUMBNAIL, quality: 70, position: "top" },
} as const;

export async function toJpeg(
  bytes: Buffer,
  shape: keyof typeof SHAPES,
): Promise<{ jpeg: Buffer; hash: string }> {
  if (bytes.length > MAX_UPLOAD_BYTES) throw new PayloadTooLargeError(MESSAGES.maxFileSize, "max-file-size");
  const { width, height, quality, position } = SHAPES[shape];
  let jpeg: Buffer;
  try {
    jpeg = await sharp(bytes, { limitInputPixels: 100_000_000 })
      .rotate()
      .resize(width, height, { fit: "cover", position })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality })
      .toBuffer();
  } catch {
    throw new BadRequestError("The file is not an image we can read.", "invalid-image");
  }
  return { jpeg, hash: createHash("sha256").update(jpeg).digest("hex").slice(0, 32) };
}

/** Team branding pictures: PNG keeps a logo's transparency; an icon is square for the favicon. */
const PNG_SHAPES = {
  /** A header logo: at most 800×200, never enlarged, proportions kept. */
  logo: (image: Sharp) => image.resize(800, 200, { fit: "inside", withoutEnlargement: true }),
  /** A favicon and header mark: 256×256, the picture fitted inside on a transparent square. */
  icon: (image: Sharp) =>
    image.resize(256, 256, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } }),
} as const;

/**
 * Re-encodes a raster image (JPEG, PNG, WebP or GIF, recognised by its bytes — anything else, SVG
 * included, is refused) as a PNG of the shape; `hash` is the SHA-256 of the PNG, for a content key.
 */
export async function toPng(
  bytes: Buffer,
  shape: keyof typeof PNG_SHAPES,
  /** What the refusal of anything else says (the caller's wording). */
  notImage: string,
): Promise<{ png: Buffer; hash: string }> {
  if (bytes.length > MAX_UPLOAD_BYTES) throw new PayloadTooLargeError(MESSAGES.maxFileSize, "max-file-size");
  if (!(await detectImage(bytes))) throw new BadRequestError(notImage, "invalid-image");
  let png: Buffer;
  try {
    png = await PNG_SHAPES[shape](sharp(bytes, { limitInputPixels: 100_000_000 }).rotate())
      .png()
      .toBuffer();
  } catch {
    throw new BadRequestError(notImage, "invalid-image");
  }
  return { png, hash: createHash("sha256").update(png).digest("hex") };
}

/** The image formats accepted for image pages, recognised by content, never by name. */
export const IMAGE_FORMATS = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
} as const;

export async function detectImage(
  bytes: Buffer,
): Promise<{ format: keyof typeof IMAGE_FORMATS; width: number; height: number } | null> {
  try {
    const meta = await sharp(bytes, { limitInputPixels: 100_000_000 }).metadata();
    if (!meta.format || !(meta.format in IMAGE_FORMATS) || !meta.width || !meta.height) return null;
    return { format: meta.format as keyof typeof IMAGE_FORMATS, width: meta.width, height: meta.height };
  } catch {
    return null;
  }
}

export function isPdf(bytes: Buffer): boolean {
  return bytes.subarray(0, 5).toString("latin1") === "%PDF-";
}
