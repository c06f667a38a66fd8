/**
 * Turns the base64 data: URIs that SingleFile inlines (images, fonts, canvases, video posters) into
 * content-addressed assets: each distinct payload is stored once under its SHA-256 and every
 * occurrence is replaced by `assetUrl(...)`. Working on the text (not a DOM) reaches every context
 * at once: attributes, <style>, style="", srcset, and iframe `srcdoc` at any depth (base64 and the
 * asset URL contain no character that HTML escaping would change there). Asset URLs must therefore
 * be URL-safe strings without quotes or spaces.
 */
import { createHash } from "node:crypto";

export interface CapturedAsset {
  sha256: string;
  contentType: string;
  ext: string;
  bytes: Buffer;
}

export type AssetUrl = (asset: { sha256: string; ext: string }) => string;

export const defaultAssetUrl: AssetUrl = ({ sha256, ext }) => `assets/${sha256}.${ext}`;

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/jpg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/avif": "avif",
  "image/svg+xml": "svg",
  "image/x-icon": "ico",
  "image/vnd.microsoft.icon": "ico",
  "image/bmp": "bmp",
  "image/apng": "png",
  "font/woff2": "woff2",
  "application/font-woff2": "woff2",
  "font/woff": "woff",
  "application/font-woff": "woff",
  "application/x-font-woff": "woff",
  "font/ttf": "ttf",
  "font/sfnt": "ttf",
  "application/x-font-ttf": "ttf",
  "application/x-font-truetype": "ttf",
  "font/otf": "otf",
  "application/x-font-opentype": "otf",
  "application/vnd.ms-fontobject": "eot",
  "video/mp4": "mp4",
  "video/webm": "webm",
  "audio/mpeg": "mp3",
  "text/css": "css",
  "application/pdf": "pdf",
};

/** Magic numbers for payloads served as application/octet-stream. */
function sniff(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 12).toString("latin1");
  if (head.startsWith("wOF2")) return "font/woff2";
  if (head.startsWith("wOFF")) return "font/woff";
  if (head.startsWith("\x89PNG")) return "image/png";
  if (head.startsWith("\xff\xd8\xff")) return "image/jpeg";
  if (head.startsWith("GIF8")) return "image/gif";
  if (head.startsWith("RIFF") && head.slice(8, 12) === "WEBP") return "image/webp";
  if (head.startsWith("OTTO")) return "font/otf";
  if (head.startsWith("\x00\x01\x00\x00")) return "font/ttf";
  return undefined;
}

// data:<type>[;param=value]*;base64,<payload>; the payload alphabet stops at any delimiter.
const DATA_URI =
  /data:([a-z0-9.+-]+\/[a-z0-9.+-]+)((?:;[a-z0-9-]+=[^;,"'\s)&]*)*);base64,([A-Za-z0-9+/]+=*)/gi;

/** Small payloads stay inline: one request per 1x1 pixel would cost more than it saves. */
const MIN_ASSET_BYTES = 256;

export function extractAssets(html: string, assetUrl: AssetUrl): { html: string; assets: CapturedAsset[] } {
  const assets = new Map<string, CapturedAsset>();
  const out = html.replace(DATA_URI, (match, type: string, _params: string, payload: string) => {
    if (payload.length < (MIN_ASSET_BYTES * 4) / 3) return match;
    const bytes = Buffer.from(payload, "base64");
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    let asset = assets.get(sha256);
    if (!asset) {
      let contentType = type.toLowerCase();
      if (contentType === "application/octet-stream") contentType = sniff(bytes) ?? contentType;
      asset = { sha256, contentType, ext: EXTENSIONS[contentType] ?? "bin", bytes };
      assets.set(sha256, asset);
    }
    return assetUrl({ sha256, ext: asset.ext });
  });
  return { html: out, assets: [...assets.values()] };
}
