import type { VersionRow } from "../../db/schema/index.ts";
import type { AppConfig } from "../../env.ts";
import { signPath } from "../../lib/signed-url.ts";

const TTL_SECONDS = 6 * 60 * 60;

export const contentSecret = (config: AppConfig) => `content:${config.authSecret}`;

/** Signed, short-lived addresses of a version's document, file and live screenshot on the content origin. */
export function contentUrls(
  config: AppConfig,
  version: VersionRow,
): { contentUrl: string | null; screenshotUrl: string | null } {
  const sign = (path: string) =>
    `${config.contentOrigin}${signPath(contentSecret(config), path, TTL_SECONDS)}`;
  const screenshotUrl = version.screenshotKey ? sign(`/s/${version.id}`) : null;
  let contentUrl: string | null = null;
  if (version.status === "ready") {
    if (version.kind === "snapshot" && version.snapshotKey) contentUrl = sign(`/v/${version.id}/index.html`);
    else if (version.kind === "screenshot") contentUrl = screenshotUrl;
    else if (version.fileKey) contentUrl = sign(`/f/${version.id}`);
  }
  return { contentUrl, screenshotUrl };
}
