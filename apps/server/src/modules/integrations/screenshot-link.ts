/**
 * The screenshot an outside service shows with a comment (issue #30: Slack's message, a tracker's card): a
 * comment stores none of its own — it is pinned on a version, whose page screenshot is stored
 * (`versions.screenshotKey`). Its address on the content origin is signed (content.urls.ts's `/s/{versionId}`)
 * and lasts 30 days, long enough for Slack to fetch it and a card's reader to open it; null when the
 * version has no screenshot.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { versions } from "../../db/schema/index.ts";
import type { AppConfig } from "../../env.ts";
import { signPath } from "../../lib/signed-url.ts";
import { contentSecret } from "../content/content.urls.ts";

export const SCREENSHOT_LINK_TTL_SECONDS = 30 * 24 * 60 * 60;

export async function screenshotLinkOf(
  config: AppConfig,
  db: Pick<Database, "select">,
  versionId: string | null,
): Promise<string | null> {
  // A comment on a slide is on no page version: it has no page screenshot.
  if (!versionId) return null;
  const [version] = await db
    .select({ screenshotKey: versions.screenshotKey })
    .from(versions)
    .where(eq(versions.id, versionId));
  if (!version?.screenshotKey) return null;
  return `${config.contentOrigin}${signPath(contentSecret(config), `/s/${versionId}`, SCREENSHOT_LINK_TTL_SECONDS)}`;
}
