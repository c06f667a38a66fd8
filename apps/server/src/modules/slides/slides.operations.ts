/**
 * The deck's writes (issue #32, ADR 0040): an editor's update is checked against a copy of the stored
 * deck and appended in one transaction under the deck row's lock, folded into the snapshot now and then,
 * and announced to the project's room (a slide it deletes hides its comments until it comes back or a day
 * passes, ADR 0044); images are uploaded (≤ 5 MB, recognised by their bytes) into the
 * one record of stored files; presence (members' and the link guests') is broadcast to the room and never kept.
 */
import { createHash } from "node:crypto";
import {
  type DeckPresence,
  type DeckPresenceInput,
  deckPresenceSchema,
  deckUpdateSchema,
  parseGuestIdentity,
  SHARING_MESSAGES,
  SLIDE_MESSAGES,
  viewerOf,
} from "@redline/shared";
import { and, eq, lte } from "drizzle-orm";
import * as Y from "yjs";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { decks, deckUpdates, type ProjectRow, slideImages } from "../../db/schema/index.ts";
import { BadRequestError, NotFoundError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { detectImage } from "../../lib/images.ts";
import { operation, withParams } from "../../lib/operations.ts";
import { type PolicyActor, policyActorOf } from "../../lib/policy.ts";
import type { LinkGuestPrincipal } from "../../lib/principal.ts";
import { broadcast } from "../../lib/realtime.ts";
import type { Actor } from "../auth/session.ts";
import { assertRoomToStore, meterStorage } from "../plans/storage.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { linkGuestView } from "../sharing/sharing.load.ts";
import { recordSlidesEvent, slidesChanged } from "./slides.events.ts";
import { authorizeSlides, type SlidesAction } from "./slides.policy.ts";
import { applyChecked, COMPACT_AFTER, decodeUpdate, encode, lockedDeckDoc } from "./slides.store.ts";

export const deckParams = z.object({ projectId: z.string().min(1).max(64) });

/** The reader's right to act on a project's deck: 404 for any project that is not an illustration one. */
function authorizeDeck(project: ProjectRow, reader: PolicyActor, action: SlidesAction): void {
  authorizeSlides(reader, "slides.read");
  if (viewerOf(project.type) !== "slides") throw new NotFoundError(SLIDE_MESSAGES.notSlides, "not-slides");
  authorizeSlides(reader, action);
}

/** The illustration project and the actor's right to act on its deck (404 for any other project). */
export async function deckProject(db: Database, actor: Actor, projectId: string, action: SlidesAction) {
  const loaded = await loadProject(db, actor, projectId);
  const reader = policyActorOf(actor, loaded.access);
  authorizeDeck(loaded.project, reader, action);
  return { ...loaded, reader };
}

/**
 * The illustration project through its public link and the link guest as the policy sees them (the same
 * guest the page comments' guest routes take, lib/principal.ts): 404 when the link is off, the project
 * archived, gone or not a deck; 403 for anything but reading (guests never change a deck).
 */
export async function guestDeckProject(
  db: Database,
  plansEnabled: boolean,
  projectId: string,
  action: SlidesAction,
) {
  const view = await linkGuestView(db, plansEnabled, projectId);
  if (!view) throw new NotFoundError(SHARING_MESSAGES.notAccessible, "project-not-accessible");
  authorizeDeck(view.project, view.guest, action);
  return { project: view.project, reader: view.guest };
}

export const applyDeckUpdate = operation(
  "slides.update",
  withParams(deckParams, deckUpdateSchema),
  async (ctx, actor: Actor, { projectId, update, clientId }) => {
    const { db } = ctx.database;
    await deckProject(db, actor, projectId, "slides.edit");
    const bytes = decodeUpdate(update);
    const id = await db.transaction(async (tx) => {
      await tx.insert(decks).values({ projectId }).onConflictDoNothing();
      await tx
        .select({ projectId: decks.projectId })
        .from(decks)
        .where(eq(decks.projectId, projectId))
        .for("update");
      // This process's copy of the deck is taken out while it may be changed: a failure leaves it out.
      const { doc, pending, remember } = await lockedDeckDoc(tx, projectId);
      const slidesBefore = new Set(doc.getMap("slides").keys());
      applyChecked(doc, bytes, projectId);
      // A slide deleted hides its comments, an undo that brings it back shows them again (ADR 0044).
      const slidesAfter = new Set(doc.getMap("slides").keys());
      await slidesChanged(
        tx as unknown as Database,
        projectId,
        [...slidesBefore].filter((id) => !slidesAfter.has(id)),
        [...slidesAfter].filter((id) => !slidesBefore.has(id)),
      );
      const [row] = await tx
        .insert(deckUpdates)
        .values({ projectId, update, userId: actor.user.id })
        .returning({ id: deckUpdates.id });
      const newId = row?.id ?? 0;
      if (pending + 1 > COMPACT_AFTER) {
        await tx
          .update(decks)
          .set({ snapshot: encode(Y.encodeStateAsUpdate(doc)), throughId: newId, updatedAt: new Date() })
          .where(eq(decks.projectId, projectId));
        await tx
          .delete(deckUpdates)
          .where(and(eq(deckUpdates.projectId, projectId), lte(deckUpdates.id, newId)));
      } else {
        await tx.update(decks).set({ updatedAt: new Date() }).where(eq(decks.projectId, projectId));
      }
      await recordSlidesEvent(tx, {
        type: "deck.updated",
        actor: { userId: actor.user.id },
        projectId,
        update,
        clientId: clientId ?? null,
      });
      return { newId, remember };
    });
    // Kept for the next write only once committed (a rolled-back write's document holds its update).
    id.remember(id.newId);
    return { data: { id: id.newId } };
  },
);

export const uploadSlideImage = operation(
  "slides.image",
  deckParams.extend({ bytes: z.instanceof(Buffer) }),
  async (ctx, actor: Actor, { projectId, bytes }) => {
    const { db } = ctx.database;
    const { project } = await deckProject(db, actor, projectId, "slides.edit");
    const image = await detectImage(bytes);
    if (!image) throw new BadRequestError(SLIDE_MESSAGES.notImage, "unsupported-file");
    const sha = createHash("sha256").update(bytes).digest("hex");
    const ext = image.format === "jpeg" ? "jpg" : image.format;
    const key = `slides/${projectId}/${sha}.${ext}`;
    await assertRoomToStore(db, project, { key, bytes: bytes.length }, ctx.config.plansEnabled);
    await ctx.storage.putContentAddressed(key, bytes, sha);
    await db.transaction(async (tx) => {
      const meter = await meterStorage(tx as unknown as Database, projectId, ctx.config.plansEnabled);
      await tx
        .insert(slideImages)
        .values({ id: newId(), projectId, key, bytes: bytes.length, userId: actor.user.id });
      await meter.check();
    });
    return { data: { src: `/files/${key}`, width: image.width, height: image.height } };
  },
);

/** Selected objects told to the others at most (the outlines of the first; the NOTIFY stays small). */
export const PRESENCE_SELECTION_SHOWN = 40;

/**
 * Where someone is on the deck and what they have selected: broadcast to the room's open sockets in every
 * process (members' and the link guests' alike), kept nowhere (not in the durable ledger: each tab repeats
 * it every 10 s, and it fades without).
 */
function broadcastPresence(
  db: Database,
  projectId: string,
  presence: DeckPresenceInput,
  who: Pick<DeckPresence, "userId" | "name" | "isGuest">,
) {
  return broadcast(db, `project:${projectId}`, {
    type: "deck.presence",
    projectId,
    presence: { ...presence, selection: presence.selection.slice(0, PRESENCE_SELECTION_SHOWN), ...who },
  });
}

export const sendDeckPresence = operation(
  "slides.presence",
  withParams(deckParams, deckPresenceSchema),
  async (ctx, actor: Actor, { projectId, ...presence }) => {
    const { db } = ctx.database;
    await deckProject(db, actor, projectId, "slides.read");
    await broadcastPresence(db, projectId, presence, {
      userId: actor.user.id,
      name: actor.user.displayName || actor.user.email,
    });
    return { data: null };
  },
);

/**
 * A guest of the public link is on the deck too (its members see them, as they see each other): the same
 * presence under the name their identity gives (Anonymous without one; never their e-mail), while the link
 * shows the deck.
 */
export const sendGuestDeckPresence = operation(
  "slides.guest.presence",
  withParams(deckParams, deckPresenceSchema),
  async (ctx, principal: LinkGuestPrincipal, { projectId, ...presence }) => {
    const { db } = ctx.database;
    await guestDeckProject(db, ctx.config.plansEnabled, projectId, "slides.read");
    const name = parseGuestIdentity(principal.identity ?? "public")?.name ?? "Anonymous";
    await broadcastPresence(db, projectId, presence, { userId: null, name, isGuest: true });
    return { data: null };
  },
);
