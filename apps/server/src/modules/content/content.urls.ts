import type { VersionRow } from "../../db/schema/index.ts";
import type { AppConfig } from "../../env.ts";
import { signPath } from "../../lib/signed-url.ts";

const TTL_SECONDS = 6 * 60 * 60;

export const contentSecret = (config: AppConfig) => `content:${config.authSecret}`;

/**
 * Signed, short-lived addresses of a version's document, file and live screenshot on the content origin.
 * `embeddable`: for readers of a public link, whose view may sit in an /embed iframe on any site, the
 * snapshot is served under /pv/ where any page may frame it; members' snapshots only frame in the app.
 */
export function contentUrls(
  config: AppConfig,
  version: VersionRow,
  options: { embeddable?: boolean } = {},
): { contentUrl: string | null; screenshotUrl: string | null } {
  const sign = (path: string) =>
    `${config.contentOrigin}${signPath(contentSecret(config), path, TTL_SECONDS)}`;
  const screenshotUrl = version.screenshotKey ? sign(`/s/${version.id}`) : null;
  let contentUrl: string | null = null;
  if (version.status === "ready") {
    if (version.kind === "snapshot" && version.snapshotKey) {
      contentUrl = sign(`/${options.embeddable ? "pv" : "v"}/${version.id}/index.html`);
    } else if (version.kind === "screenshot") contentUrl = screenshotUrl;
    else if (version.fileKey) contentUrl = sign(`/f/${version.id}`);
  }
  return { contentUrl, screenshotUrl };
}
