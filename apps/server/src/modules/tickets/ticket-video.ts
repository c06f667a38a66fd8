/**
 * Videos on tickets (issue #33): a ticket entry may carry a recorded video as a comment's does — measured,
 * queued and processed by videos/processing.ts; this is how the job finds a ticket's entry and records what
 * became of its video, told to the board through `ticket.changed`.
 */
import { and, eq } from "drizzle-orm";
import { ticketEntries, tickets } from "../../db/schema/index.ts";
import type { VideoHolder } from "../videos/processing.ts";
import { recordTicketsChanged } from "./tickets.service.ts";

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
