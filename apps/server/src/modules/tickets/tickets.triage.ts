/**
 * Triage of a widget report (SPEC §4 ticket states): accept it at the end of a list, merge it into another
 * ticket of the board (its note joins that ticket's thread, so nothing the reporter said is lost), or
 * reject it. Merged and rejected reports keep their rows, out of every list.
 */
import { type TriageTicketInput, UNLIMITED } from "@redline/shared";
import { and, eq } from "drizzle-orm";
import { projects, type TicketRow, ticketEntries, tickets } from "../../db/schema/index.ts";
import { BadRequestError, ConflictError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import {
  boardLimit,
  endOfList,
  listOfProject,
  lockTicket,
  recordTicketsChanged,
  TicketLimitError,
  type Tx,
} from "./tickets.service.ts";

/**
 * Inside the caller's transaction; records one event with every ticket it changes. A report kept past the ticket limit
 * (createTicket's `keepsPastLimit`) is accepted only once the board is back within it (402 until then).
 */
export async function triageTicket(
  tx: Tx,
  ticket: Pick<TicketRow, "id" | "projectId">,
  input: TriageTicketInput,
  plansEnabled: boolean,
): Promise<void> {
  // Both tickets of a merge are locked in id order, so two merges of each into the other never deadlock.
  if (input.action === "duplicate" && input.of < ticket.id) await lockTicket(tx, input.of).catch(() => null);
  const current = await lockTicket(tx, ticket.id);
  if (current.intake !== "triage")
    throw new ConflictError("This report is no longer in triage.", "ticket-not-in-triage");
  const now = new Date();
  // A merge changes its target too (the report's note joins its thread): both go in the one event.
  let mergedInto: string | null = null;
  if (input.action === "accept") {
    await listOfProject(tx, ticket.projectId, input.listId);
    const [project] = await tx
      .select({ id: projects.id, ownerId: projects.ownerId })
      .from(projects)
      .where(eq(projects.id, ticket.projectId));
    // This report is counted already: past the limit, the board holds more than its plan allows.
    const { limit, used } = await boardLimit(tx, project!, plansEnabled);
    if (limit !== UNLIMITED && used > limit) throw new TicketLimitError(limit);
    await tx
      .update(tickets)
      .set({
        intake: "accepted",
        listId: input.listId,
        sortKey: await endOfList(tx, ticket.projectId, input.listId),
        modifiedAt: now,
      })
      .where(eq(tickets.id, ticket.id));
  } else if (input.action === "reject") {
    await tx
      .update(tickets)
      .set({ intake: "rejected", listId: null, modifiedAt: now })
      .where(eq(tickets.id, ticket.id));
  } else {
    const [target] = await tx
      .select()
      .from(tickets)
      .where(and(eq(tickets.id, input.of), eq(tickets.projectId, ticket.projectId)))
      .for("update");
    if (!target || target.id === ticket.id || target.intake === "rejected" || target.intake === "duplicate")
      throw new BadRequestError("Merge the report into another ticket of this board.", "bad-duplicate");
    await tx
      .update(tickets)
      .set({ intake: "duplicate", duplicateOf: target.id, listId: null, modifiedAt: now })
      .where(eq(tickets.id, ticket.id));
    // The report's note joins the target's thread, so nothing the reporter said is lost.
    const [note] = await tx
      .select()
      .from(ticketEntries)
      .where(eq(ticketEntries.ticketId, ticket.id))
      .orderBy(ticketEntries.createdAt, ticketEntries.id)
      .limit(1);
    if (note)
      await tx.insert(ticketEntries).values({
        id: newId(),
        ticketId: target.id,
        userId: current.reporterId,
        guestName: current.reporterId ? null : current.reporterName,
        body: note.body,
        attachments: note.attachments,
        createdAt: now,
      });
    await tx.update(tickets).set({ modifiedAt: now }).where(eq(tickets.id, target.id));
    mergedInto = target.id;
  }
  await recordTicketsChanged(tx, ticket.projectId, ...(mergedInto ? [mergedInto] : []), ticket.id);
}
