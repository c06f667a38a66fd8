/**
 * The similar-pages picker (SPEC §2): given a URL, the page-like links on that page that stay on the
 * same site, so several pages can be added at once. Fetched by Node through the capture package's
 * SSRF-guarded fetcher (every hop and every resolved address checked), parsed for href values only.
 */
import { isPageLikeUrl, type SimilarPages } from "@redline/shared";
import type { AppConfig } from "../../env.ts";
import { BadRequestError } from "../../lib/errors.ts";

const MAX_HTML_BYTES = 2 * 1024 * 1024;
const MAX_RESULTS = 50;

export async function findSimilarPages(config: AppConfig, url: string): Promise<SimilarPages> {
  const { CaptureError, Fetcher } = await import("@redline/capture");
  const fetcher = new Fetcher({ allowPrivate: config.allowPrivateUrls });
  let html: string;
  let finalUrl: string;
  try {
    const response = await fetcher.fetchFollowingRedirects(url, {
      headers: { accept: "text/html" },
      maxBytes: MAX_HTML_BYTES,
      signal: AbortSignal.timeout(10_000),
    });
    if (response.status >= 400)
      throw new BadRequestError(`The page answered ${response.status}.`, "fetch-failed");
    html = response.body.toString("utf8");
    finalUrl = response.url;
  } catch (error) {
    if (error instanceof CaptureError && error.reason === "blocked-url") {
      throw new BadRequestError("This address points to a private network.", "blocked-url");
    }
    if (error instanceof BadRequestError) throw error;
    throw new BadRequestError("The page could not be loaded.", "fetch-failed");
  } finally {
    await fetcher.close();
  }
  const origin = new URL(finalUrl).origin;
  const found = new Set<string>();
  for (const match of html.matchAll(/\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
    const href = (match[1] ?? match[2] ?? match[3] ?? "").trim();
    let link: URL;
    try {
      link = new URL(href, finalUrl);
    } catch {
      continue;
    }
    link.hash = "";
    const candidate = link.href;
    if (link.origin !== origin || candidate === finalUrl || candidate === url || !isPageLikeUrl(candidate))
      continue;
    found.add(candidate);
    if (found.size >= MAX_RESULTS) break;
  }
  return { url: finalUrl, pages: [...found].sort() };
}
