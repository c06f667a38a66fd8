/**
 * A ticket's thread, the writes (lib/operations.ts): reply with mentions, attachments and a recorded video; an author edits
 * their entry; deleting the only entry deletes the ticket (SPEC §4).
 */
import { deletingEntryDeletesTicket, editTicketEntrySchema, ticketEntrySchema } from "@redline/shared";
import { count, eq } from "drizzle-orm";
import { z } from "zod";
import { ticketEntries, tickets } from "../../db/schema/index.ts";
import { newId } from "../../lib/ids.ts";
import { type LoggedContext, operation, withParams } from "../../lib/operations.ts";
import { memberActor } from "../../lib/policy.ts";
import type { Actor } from "../auth/session.ts";
import { storedAttachments } from "../comments/attachments.routes.ts";
import { releaseFilesOf, removeReleasedFiles } from "../files/stored-files.ts";
import { meterStorage } from "../plans/storage.ts";
import { acceptVideo, enqueueVideo, pendingVideoColumns } from "../videos/processing.ts";
import { recordTicketEvent } from "./tickets.events.ts";
import { loadTicket, loadTicketEntry } from "./tickets.load.ts";
import { ticketParams } from "./tickets.operations.ts";
import { authorizeTicket, withTicketAbilities } from "./tickets.policy.ts";
import {
  lockTicket,
  recordTicketDeleted,
  recordTicketsChanged,
  releaseTicketFiles,
  TICKET_ENTRY_FILES,
  ticketDetailNow,
  ticketState,
} from "./tickets.service.ts";

const entryParams = ticketParams.extend({ entryId: z.string().min(1).max(64) });

export const replyOnTicket = operation(
  "tickets.reply",
  withParams(ticketParams, ticketEntrySchema),
  async (ctx, actor: Actor, { ticketId, ...input }) => {
    const { db } = ctx.database;
    const { ticket, access, project } = await loadTicket(db, actor, ticketId);
    const writer = memberActor(actor.user.id, access);
    authorizeTicket(writer, "tickets.reply");
    if (input.attachments.length > 0 || input.video) authorizeTicket(writer, "tickets.attach");
    const attachments = await storedAttachments(ctx.storage, ticket.projectId, input.attachments);
    // Measured on the server before anything is written (videos/processing.ts); refused, nothing is kept.
    const video = input.video && (await acceptVideo(ctx, project, actor.user.id, input.video));
    const entryId = newId();
    await db.transaction(async (tx) => {
      const meter =
        attachments.length > 0 ? await meterStorage(tx, ticket.projectId, ctx.config.plansEnabled) : null;
      await lockTicket(tx, ticket.id);
      await tx.insert(ticketEntries).values({
        id: entryId,
        ticketId: ticket.id,
        userId: actor.user.id,
        body: input.comment,
        attachments,
        ...pendingVideoColumns(video),
      });
      if (video) await enqueueVideo(ctx.queue, tx, "ticket", entryId, video);
      await meter?.check();
      await tx.update(tickets).set({ modifiedAt: new Date() }).where(eq(tickets.id, ticket.id));
      await recordTicketEvent(tx, {
        type: "ticket.replied",
        actor: { userId: actor.user.id },
        projectId: ticket.projectId,
        state: await ticketState(tx, ticket.id),
        text: input.comment,
      });
    });
    return { data: withTicketAbilities(writer, await ticketDetailNow(db, ticket.id)) };
  },
);

export const editTicketEntry = operation(
  "ticketEntries.edit",
  withParams(entryParams, editTicketEntrySchema),
  async (ctx, actor: Actor, { comment, ...params }) => {
    const input = { comment };
    const { db } = ctx.database;
    const { ticket, access } = await loadTicket(db, actor, params.ticketId);
    const writer = memberActor(actor.user.id, access);
    authorizeTicket(writer, "tickets.read");
    const entry = await loadTicketEntry(db, ticket.id, params.entryId);
    authorizeTicket(writer, "ticketEntries.edit", { authorId: entry.userId });
    await db.transaction(async (tx) => {
      await tx
        .update(ticketEntries)
        .set({ body: input.comment, editedAt: new Date() })
        .where(eq(ticketEntries.id, entry.id));
      await recordTicketsChanged(tx, ticket.projectId, ticket.id);
    });
    return { data: withTicketAbilities(writer, await ticketDetailNow(db, ticket.id)) };
  },
);

export const deleteTicketEntry = operation(
  "ticketEntries.delete",
  entryParams,
  async (ctx: LoggedContext, actor: Actor, params) => {
    const { db } = ctx.database;
    const { ticket, access } = await loadTicket(db, actor, params.ticketId);
    const writer = memberActor(actor.user.id, access);
    authorizeTicket(writer, "tickets.read");
    const entry = await loadTicketEntry(db, ticket.id, params.entryId);
    authorizeTicket(writer, "ticketEntries.delete", { authorId: entry.userId });
    const { ticketDeleted, files } = await db.transaction(async (tx) => {
      // Under the ticket's lock, so two deletions of its last two entries cannot leave it empty.
      await lockTicket(tx, ticket.id);
      const [{ entries } = { entries: 0 }] = await tx
        .select({ entries: count() })
        .from(ticketEntries)
        .where(eq(ticketEntries.ticketId, ticket.id));
      if (deletingEntryDeletesTicket(entries)) {
        const released = await releaseTicketFiles(tx, [ticket.id], () =>
          tx.delete(tickets).where(eq(tickets.id, ticket.id)),
        );
        await recordTicketDeleted(tx, ticket.projectId, ticket.id);
        return { ticketDeleted: true, files: released };
      }
      const released = await releaseFilesOf(tx, [{ kinds: TICKET_ENTRY_FILES, ids: [entry.id] }], () =>
        tx.delete(ticketEntries).where(eq(ticketEntries.id, entry.id)),
      );
      await tx.update(tickets).set({ modifiedAt: new Date() }).where(eq(tickets.id, ticket.id));
      await recordTicketsChanged(tx, ticket.projectId, ticket.id);
      return { ticketDeleted: false, files: released };
    });
    await removeReleasedFiles(ctx, files, ctx.log);
    return { data: { ticketDeleted } };
  },
);
