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
import { policyActorOf } from "../../lib/policy.ts";
import type { Actor } from "../auth/session.ts";
import { authorizeNewEntry, entryToChange } from "../discussion/discussion.ts";
import { editEntryText, projectAttachments, writeEntry } from "../discussion/discussion.write.ts";
import { releaseFilesOf, removeReleasedFiles } from "../files/stored-files.ts";
import { acceptVideo, enqueueVideo, pendingVideoColumns } from "../videos/processing.ts";
import { recordTicketEvent } from "./tickets.events.ts";
import { loadTicket, loadTicketEntry } from "./tickets.load.ts";
import { ticketParams } from "./tickets.operations.ts";
import { TICKET_DISCUSSION, withTicketAbilities } from "./tickets.policy.ts";
import {
  lockTicket,
  recordTicketDeleted,
  recordTicketsChanged,
  releaseTicketFiles,
  TICKET_ENTRY_FILES,
  type Tx,
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
    const writer = policyActorOf(actor, access);
    authorizeNewEntry(TICKET_DISCUSSION, writer, input);
    const attachments = await projectAttachments(ctx.storage, ticket.projectId, input.attachments);
    // Measured on the server before anything is written (videos/processing.ts); refused, nothing is kept.
    const video = input.video && (await acceptVideo(ctx, project, actor.user.id, input.video));
    const entryId = newId();
    const place = {
      projectId: ticket.projectId,
      plansEnabled: ctx.config.plansEnabled,
      carriesFiles: attachments.length > 0,
    };
    const insert = async (tx: Tx) => {
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
    };
    await writeEntry(db, place, insert, async (tx) => {
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
    const writer = policyActorOf(actor, access);
    const entry = await entryToChange(TICKET_DISCUSSION, writer, "edit", () =>
      loadTicketEntry(db, ticket.id, params.entryId),
    );
    await db.transaction(async (tx) => {
      await editEntryText(tx, ticketEntries, entry.id, input.comment);
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
    const entry = await entryToChange(TICKET_DISCUSSION, policyActorOf(actor, access), "delete", () =>
      loadTicketEntry(db, ticket.id, params.entryId),
    );
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
