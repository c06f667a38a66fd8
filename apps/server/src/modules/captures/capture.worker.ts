/**
 * Works capture jobs: URL → snapshot (packages/capture) → assets stored once by SHA-256, snapshot HTML
 * and the live screenshot through the storage provider → version ready (or failed, with the reason).
 * The browser is launched on the first job and kept warm; each job gets a fresh context inside it.
 */
// Type-only: the capture package (and Chromium) load on the first job, never in processes that work no jobs.
import { buffer } from "node:stream/consumers";
import type { Capturer } from "@redline/capture";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { assets, pages, versionAssets, versions } from "../../db/schema/index.ts";
import { captureDurations } from "../../lib/metrics.ts";
import { publish } from "../../lib/realtime.ts";
import { setPageThumbnail } from "../pages/thumbnails.ts";
import { loadCountedVersion, loadCountedVersionsOfPage } from "../project-access/projects.load.ts";
import { presentPage, presentVersion } from "../projects/projects.presenter.ts";
import { CAPTURE_QUEUE, enqueueUnfinished } from "../versions/capture-queue.ts";

const REASONS: Record<string, string> = {
  "blocked-url": "This address points to a private network, which Redline may not capture.",
  timeout: "The page took too long to load.",
  "load-failed": "The page could not be loaded.",
  "too-large": "The page is too large to capture.",
};

export interface CaptureWorker {
  stop(graceMs?: number): Promise<void>;
}

/** How long a stopping worker waits for the capture in progress (systemd's TimeoutStopSec is 60 s). */
const STOP_GRACE_MS = 45_000;

export async function startCaptureWorker(ctx: AppContext): Promise<CaptureWorker> {
  const inFlight = new Set<Promise<unknown>>();
  let capturer: Promise<Capturer> | null = null;
  const getCapturer = () => {
    capturer ??= import("@redline/capture").then(({ Capturer }) =>
      Capturer.launch({ chromiumPath: ctx.config.chromiumPath }),
    );
    return capturer;
  };
  await retryOrphanedCaptures(ctx);
  const sweeper =
    ctx.database.kind === "postgres"
      ? setInterval(() => void retryOrphanedCaptures(ctx).catch(() => {}), ORPHAN_SWEEP_MS)
      : undefined;
  sweeper?.unref();
  await ctx.queue.work<{ versionId: string }>(
    CAPTURE_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: 0.5 },
    async ([job]) => {
      if (!job) return;
      const timer = captureDurations.startTimer();
      // PostgreSQL: the job's lock lives as long as this process (or until the capture ends): a worker
      // killed mid-job leaves a running job nobody holds, and another worker retries it (below).
      const release = await ctx.database.holdLock?.(captureLock(job.data.versionId));
      const capture = runCapture(ctx, getCapturer, job.data.versionId).finally(() => release?.());
      inFlight.add(capture);
      try {
        await capture;
        timer({ outcome: "done" });
      } catch (error) {
        timer({ outcome: "failed" });
        throw error;
      } finally {
        inFlight.delete(capture);
      }
    },
  );
  await enqueueUnfinished(ctx);
  return {
    // Stopping takes no new capture and lets the one in progress finish (a process stopped for a restart
    // completes its job); one that outlasts `graceMs` ends with the browser and is retried by the queue.
    async stop(graceMs = STOP_GRACE_MS) {
      clearInterval(sweeper);
      await ctx.queue.offWork(CAPTURE_QUEUE);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(inFlight),
        new Promise((resolve) => {
          timer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(timer);
      if (capturer) await (await capturer).close();
    },
  };
}

const captureLock = (versionId: string) => `capture:${versionId}`;

/** How often a PostgreSQL worker looks for captures left running by a worker that died. */
const ORPHAN_SWEEP_MS = 5000;

/**
 * A capture job still running in the queue whose worker is gone (killed, its machine lost) is failed, so
 * the queue retries it (retryLimit) and a live worker captures the page, instead of it waiting out its
 * expiry. PostgreSQL: a job is orphaned when no session holds its lock (taken within moments of the job
 * starting; jobs younger than 5 s are left alone). PGlite: one process works the queue, so every job
 * running when its worker starts belonged to a process that ended.
 */
export async function retryOrphanedCaptures(ctx: AppContext): Promise<number> {
  const { database, queue } = ctx;
  const { rows } = await database.executeSql(
    `select id, data->>'versionId' as "versionId" from pgboss.job
      where name = $1 and state = 'active' and started_on < now() - $2::interval`,
    [CAPTURE_QUEUE, database.kind === "postgres" ? "5 seconds" : "0 seconds"],
  );
  let retried = 0;
  for (const { id, versionId } of rows as { id: string; versionId: string }[]) {
    if (database.isLockHeld && (await database.isLockHeld(captureLock(versionId)))) continue;
    await queue.fail(CAPTURE_QUEUE, id, { reason: "The worker capturing this page stopped." });
    retried++;
  }
  return retried;
}

export async function runCapture(ctx: AppContext, getCapturer: () => Promise<Capturer>, versionId: string) {
  const { db } = ctx.database;
  const [version] = await db.select().from(versions).where(eq(versions.id, versionId));
  if (!version || version.status === "ready" || !version.sourceUrl) return;
  // Each step is published with the version as the API presents it, so the project page and the viewer
  // follow the capture without polling.
  // Its page goes with it as the project lists it (title, thumbnail, versions): the project page applies
  // it and reads nothing. `pageTitle`: the captured document's title, given to a page still named by its
  // URL — in the same transaction as the step, so the step's event and any read after it carry it.
  const setVersion = (values: Partial<typeof versions.$inferInsert>, pageTitle?: string) =>
    db.transaction(async (tx) => {
      await tx
        .update(versions)
        .set({ ...values, modifiedAt: new Date() })
        .where(eq(versions.id, versionId));
      if (pageTitle)
        await tx
          .update(pages)
          .set({ title: pageTitle })
          .where(and(eq(pages.id, version.pageId), eq(pages.title, pages.url)));
      const row = await loadCountedVersion(tx, versionId);
      const [pageRow] = await tx.select().from(pages).where(eq(pages.id, version.pageId));
      if (row && pageRow)
        await publish(tx, `project:${row.projectId}`, {
          type: "versions.changed",
          projectId: row.projectId,
          pageId: row.pageId,
          versionId,
          version: presentVersion(row),
          page: presentPage(pageRow, await loadCountedVersionsOfPage(tx, pageRow.id)),
        });
    });

  // A page the browser extension serialized in the user's tab: it is sanitized here, not captured.
  if (version.kind === "snapshot" && version.fileKey)
    return sanitizeUploaded(ctx, getCapturer, version, setVersion);
  await setVersion({ status: "capturing", stage: "Loading page", failureReason: null });
  try {
    const result = await (await getCapturer()).capture({
      url: version.sourceUrl,
      width: version.width,
      allowPrivateUrls: ctx.config.allowPrivateUrls,
      assetUrl: (asset) => `/a/${asset.sha256}.${asset.ext}`,
    });
    await setVersion({ stage: "Saving snapshot" });
    const isSnapshot = version.kind === "snapshot";
    if (isSnapshot) {
      await storeSnapshot(ctx, versionId, result);
    }
    await ctx.storage.put(`screenshots/${versionId}.png`, result.screenshot);
    await setPageThumbnail(ctx, version.pageId, result.screenshot);
    await setVersion(
      {
        status: "ready",
        stage: null,
        viewport: result.viewport,
        capture: { timings: result.timings, bytes: result.bytes, settled: result.settled },
        snapshotKey: isSnapshot ? `snapshots/${versionId}.html` : null,
        screenshotKey: `screenshots/${versionId}.png`,
      },
      result.title.trim().slice(0, 200) || undefined,
    );
  } catch (error) {
    await failed(error, setVersion);
  }
}

type SetVersion = (values: Partial<typeof versions.$inferInsert>, pageTitle?: string) => Promise<void>;

async function failed(error: unknown, setVersion: SetVersion) {
  const known = captureErrorReason(error);
  const reason = known ? (REASONS[known] ?? (error as Error).message) : "The page could not be captured.";
  if (!known) console.error("capture failed", error);
  await setVersion({ status: "failed", stage: null, failureReason: reason });
}

/**
 * The extension's upload (modules/extension): SingleFile's document from the user's tab, sanitized by the
 * same sanitizer as a capture, its assets stored the same way; the tab's visible pixels (stored with the
 * upload) are the version's screenshot. The raw upload is let go once the snapshot is stored.
 */
async function sanitizeUploaded(
  ctx: AppContext,
  getCapturer: () => Promise<Capturer>,
  version: typeof versions.$inferSelect,
  setVersion: SetVersion,
) {
  await setVersion({ status: "capturing", stage: "Saving snapshot", failureReason: null });
  try {
    const stored = await ctx.storage.get(version.fileKey!);
    if (!stored) throw new Error(`the upload ${version.fileKey} is missing`);
    const raw = await buffer(stored.stream);
    const started = performance.now();
    const result = await (await getCapturer()).sanitizeUpload(raw.toString("utf8"), {
      assetUrl: (asset) => `/a/${asset.sha256}.${asset.ext}`,
    });
    await storeSnapshot(ctx, version.id, result);
    const shot = await ctx.storage.get(`screenshots/${version.id}.png`);
    const screenshot = shot ? await buffer(shot.stream) : null;
    if (screenshot) await setPageThumbnail(ctx, version.pageId, screenshot);
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(result.html)?.[1]?.trim().slice(0, 200);
    await setVersion(
      {
        status: "ready",
        stage: null,
        viewport: { width: version.width, height: pngHeight(screenshot) ?? 800 },
        capture: {
          timings: { sanitize: Math.round(performance.now() - started) },
          bytes: {
            html: Buffer.byteLength(result.html),
            assets: result.assets.reduce((sum, asset) => sum + asset.bytes.length, 0),
          },
          settled: { complete: true, busy: [] },
        },
        snapshotKey: `snapshots/${version.id}.html`,
        screenshotKey: screenshot ? `screenshots/${version.id}.png` : null,
        fileKey: null,
        fileBytes: null,
      },
      title || undefined,
    );
  } catch (error) {
    await failed(error, setVersion);
  }
}

/** A PNG's height from its header (bytes 20–23 of IHDR). */
function pngHeight(png: Buffer | null): number | null {
  return png && png.length > 24 ? png.readUInt32BE(20) : null;
}

/** The snapshot's assets stored once each by hash, its uses recorded, and its document stored. */
async function storeSnapshot(
  ctx: AppContext,
  versionId: string,
  result: { html: string; assets: { sha256: string; ext: string; contentType: string; bytes: Buffer }[] },
) {
  const { db } = ctx.database;
  for (const asset of result.assets) {
    const [known] = await db.select({ ext: assets.ext }).from(assets).where(eq(assets.sha256, asset.sha256));
    // Even a known asset is checked on disk: a crash may have left its file torn.
    await ctx.storage.putContentAddressed(
      `assets/${asset.sha256}.${known?.ext ?? asset.ext}`,
      asset.bytes,
      asset.sha256,
    );
    if (known) continue;
    await db
      .insert(assets)
      .values({
        sha256: asset.sha256,
        contentType: asset.contentType,
        ext: asset.ext,
        size: asset.bytes.length,
      })
      .onConflictDoNothing();
  }
  // The snapshot's uses of its assets, so the file collector keeps them while the version lives.
  if (result.assets.length > 0)
    await db
      .insert(versionAssets)
      .values(
        [...new Set(result.assets.map((asset) => asset.sha256))].map((sha256) => ({ versionId, sha256 })),
      )
      .onConflictDoNothing();
  await ctx.storage.put(`snapshots/${versionId}.html`, Buffer.from(result.html, "utf8"));
}

function captureErrorReason(error: unknown): string | null {
  if (error instanceof Error && error.name === "CaptureError" && "reason" in error)
    return String(error.reason);
  return null;
}
