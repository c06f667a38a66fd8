/**
 * Videos on tickets (issue #33): a ticket entry may carry a recorded video as a comment's does — measured,
 * queued and processed by videos/processing.ts; this is how the job finds a ticket's entry and records what
 * became of its video, told to the board through `ticket.changed`.
 */
import { and, asc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { ticketEntries, tickets } from "../../db/schema/index.ts";
import { ConflictError } from "../../lib/errors.ts";
import {
  type AcceptedVideo,
  enqueueVideo,
  pendingVideoColumns,
  type VideoHolder,
} from "../videos/processing.ts";
import { lockTicket, recordTicketsChanged } from "./tickets.service.ts";

const firstEntryHasVideo = () =>
  new ConflictError("This report already has its video.", "video-already-attached");

/** The ticket's first entry (the report itself). */
async function firstEntryOf(db: Database, ticketId: string) {
  const [entry] = await db
    .select()
    .from(ticketEntries)
    .where(eq(ticketEntries.ticketId, ticketId))
    .orderBy(asc(ticketEntries.createdAt), asc(ticketEntries.id))
    .limit(1);
  return entry;
}

/** Refuses (409) when the ticket's first entry carries a video already (or has none: the ticket went). */
export async function assertFirstEntryTakesVideo(db: Database, ticketId: string): Promise<void> {
  const entry = await firstEntryOf(db, ticketId);
  if (!entry || entry.videoStatus !== null) throw firstEntryHasVideo();
}

/**
 * The widget reporter's recording (issue #33): a measured upload becomes the video of the ticket's first
 * entry — once; a second is refused (409) and its upload removed. Queued as a reply's video is.
 */
export async function attachFirstEntryVideo(
  ctx: AppContext,
  ticketId: string,
  video: AcceptedVideo,
): Promise<void> {
  try {
    await ctx.database.db.transaction(async (tx) => {
      const ticket = await lockTicket(tx, ticketId);
      const entry = await firstEntryOf(tx, ticketId);
      if (!entry || entry.videoStatus !== null) throw firstEntryHasVideo();
      await tx.update(ticketEntries).set(pendingVideoColumns(video)).where(eq(ticketEntries.id, entry.id));
      await enqueueVideo(ctx.queue, tx, "ticket", entry.id, video);
      await recordTicketsChanged(tx, ticket.projectId, ticket.id);
    });
  } catch (error) {
    await ctx.videoUploads.remove(video.upload);
    throw error;
  }
}

export const ticketVideos: VideoHolder = {
  async pending(db, entryId) {
    const [row] = await db
      .select({ entry: ticketEntries, projectId: tickets.projectId })
      .from(ticketEntries)
      .innerJoin(tickets, eq(tickets.id, ticketEntries.ticketId))
      .where(eq(ticketEntries.id, entryId));
    return row && row.entry.videoStatus === "processing" && row.entry.videoUpload
      ? { projectId: row.projectId, upload: row.entry.videoUpload }
      : null;
  },
  async finish(tx, entryId, outcome) {
    const [entry] = await tx
      .update(ticketEntries)
      .set({ ...outcome, videoUpload: null })
      .where(and(eq(ticketEntries.id, entryId), eq(ticketEntries.videoStatus, "processing")))
      .returning({ ticketId: ticketEntries.ticketId });
    const [ticket] = entry ? await tx.select().from(tickets).where(eq(tickets.id, entry.ticketId)) : [];
    if (ticket) await recordTicketsChanged(tx, ticket.projectId, ticket.id);
  },
};
