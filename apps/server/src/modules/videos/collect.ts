/**
 * Collecting abandoned video uploads (ADR 0039): an upload left unfinished, or finished but named by no
 * comment, reply or ticket entry, is removed a day after it began — every hour in each app process, and once at its start.
 * An upload an entry waits on (its video job has not run yet) is held and kept whatever its age.
 */
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { commentEntries, ticketEntries } from "../../db/schema/index.ts";
import type { VideoUploads } from "./uploads.ts";

const HOURLY_MS = 3_600_000;

/** Removes the abandoned uploads; returns how many. */
export function collectVideoUploads(db: Database, uploads: VideoUploads): Promise<number> {
  return uploads.collect(async (id) => {
    const [comment, ticket] = await Promise.all([
      db.select({ id: commentEntries.id }).from(commentEntries).where(eq(commentEntries.videoUpload, id)),
      db.select({ id: ticketEntries.id }).from(ticketEntries).where(eq(ticketEntries.videoUpload, id)),
    ]);
    return comment.length > 0 || ticket.length > 0;
  });
}

/** Collects now, then every hour, until stopped. */
export function startUploadCollection(ctx: Pick<AppContext, "database" | "videoUploads">): { stop(): void } {
  const collect = () =>
    collectVideoUploads(ctx.database.db, ctx.videoUploads).catch((error: unknown) =>
      console.error("could not collect video uploads", error),
    );
  void collect();
  const timer = setInterval(collect, HOURLY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
