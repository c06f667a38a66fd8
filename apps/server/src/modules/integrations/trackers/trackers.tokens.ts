/**
 * A tracker's token for a call, renewed when it expires (Asana's last an hour; Trello's and ClickUp's do
 * not expire and pass through unchanged). Before a call, a token that ends within a minute is refreshed
 * through the tracker's `refresh`; a call answered 401 refreshes once and is tried once more. A refresh
 * happens in a transaction holding the integration's row, so two jobs never both spend the refresh token:
 * the second finds the first one's new token and uses it. A refused refresh (revoked) throws the tracker's
 * failure, which the caller answers as SPEC's 'Something went wrong'; nothing of Redline's changes but the
 * integration's `needsReconnect`, which its card shows with a way to connect again.
 */
import { eq, sql } from "drizzle-orm";
import type { AppContext } from "../../../context.ts";
import { type ProjectIntegrationRow, projectIntegrations } from "../../../db/schema/index.ts";
import { isTrackerFailure, type Tracker, type TrackerSecrets } from "./tracker.ts";
import { trackerSecrets } from "./trackers.load.ts";

/** How long before its end a token is renewed rather than used. */
export const REFRESH_MARGIN_MS = 60_000;

type Ctx = Pick<AppContext, "config" | "database">;

const isDue = (secrets: TrackerSecrets, now = Date.now()) =>
  secrets.expiresAt !== undefined && secrets.expiresAt - REFRESH_MARGIN_MS <= now;

/**
 * A new token for the integration, unless another job renewed `stale` meanwhile (then theirs). `fallback`
 * holds the secrets of a row already deleted (a disconnect unwatching): renewed for this call, not saved.
 */
async function renewToken(
  ctx: Ctx,
  tracker: Tracker,
  integrationId: string,
  stale: string,
  fallback: TrackerSecrets,
): Promise<string> {
  const box = trackerSecrets(ctx);
  const renewing = ctx.database.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(projectIntegrations)
      .where(eq(projectIntegrations.id, integrationId))
      .for("update");
    const secrets = row ? box.open(row) : fallback;
    if (secrets.token && secrets.token !== stale && !isDue(secrets)) return secrets.token;
    if (!tracker.refresh || !secrets.refreshToken) return stale;
    const grant = await tracker.refresh(secrets.refreshToken);
    if (row)
      await tx
        .update(projectIntegrations)
        .set({ secrets: box.seal({ ...secrets, ...grant }) })
        .where(eq(projectIntegrations.id, integrationId));
    return grant.token;
  });
  try {
    return await renewing;
  } catch (error) {
    // Refused, not merely unreachable: only a new connection helps (connecting again writes a new config).
    if (isTrackerFailure(error) && !error.isTransient)
      await ctx.database.db
        .update(projectIntegrations)
        .set({ config: sql`${projectIntegrations.config} || '{"needsReconnect": true}'::jsonb` })
        .where(eq(projectIntegrations.id, integrationId));
    throw error;
  }
}

/**
 * Runs `call` with the integration's token (which the caller has checked is there), renewing it first when
 * due and once after a 401.
 */
export async function withTrackerToken<T>(
  ctx: Ctx,
  tracker: Tracker,
  row: Pick<ProjectIntegrationRow, "id" | "secrets">,
  call: (token: string) => Promise<T>,
): Promise<T> {
  const secrets = trackerSecrets(ctx).open(row);
  let token = secrets.token ?? "";
  const renewable = Boolean(tracker.refresh && secrets.refreshToken);
  if (renewable && isDue(secrets)) token = await renewToken(ctx, tracker, row.id, token, secrets);
  try {
    return await call(token);
  } catch (error) {
    if (!(renewable && isTrackerFailure(error) && error.status === 401)) throw error;
    // Revoked early or expired sooner than it said: one refresh, one more try.
    const renewed = await renewToken(ctx, tracker, row.id, token, { ...secrets, expiresAt: 0 });
    if (renewed === token) throw error;
    return call(renewed);
  }
}
