/**
 * An illustration project's deck (issue #32): read it whole (one Yjs update), send an update (editors),
 * upload an image (editors, ≤ 5 MB) and say where one is (presence). Live changes reach other editors
 * through the project's realtime room (`deck.updated`, `deck.presence`). A guest of the public link reads
 * the deck through `/api/share/{p}/deck` (read only: there is no guest route that changes it) and says
 * where they are (`/api/share/{p}/deck/presence`): members see them, and they see the members.
 */
import {
  type DeckState,
  dataAnswer,
  deckStateSchema,
  deckUpdatedSchema,
  slideImageUploadSchema,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { THROUGH_THE_LINK, throughLink } from "../../lib/principal.ts";
import { route } from "../../lib/routes.ts";
import { readFile } from "../../lib/uploads.ts";
import { requireActor } from "../auth/session.ts";
import {
  applyDeckUpdate,
  deckParams,
  deckProject,
  guestDeckProject,
  sendDeckPresence,
  sendGuestDeckPresence,
  uploadSlideImage,
} from "./slides.operations.ts";
import { canSlides } from "./slides.policy.ts";
import { encode, mergedUpdate, readStoredDeck } from "./slides.store.ts";

export async function slidesRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  app.get(
    "/api/projects/:projectId/deck",
    route({
      summary: "An illustration project's slides, as one Yjs update",
      action: "slides.read",
      response: dataAnswer(deckStateSchema),
    }),
    async (request): Promise<{ data: DeckState }> => {
      const actor = await requireActor(request);
      const { projectId } = deckParams.parse(request.params);
      const { reader } = await deckProject(db, actor, projectId, "slides.read");
      const stored = await readStoredDeck(db, projectId);
      return { data: { update: encode(mergedUpdate(stored)), canEdit: canSlides(reader, "slides.edit") } };
    },
  );

  app.get(
    "/api/share/:projectId/deck",
    route({
      summary: "An illustration project's slides through its public link (read only)",
      action: "public",
      accepts: THROUGH_THE_LINK,
      response: dataAnswer(deckStateSchema),
    }),
    async (request): Promise<{ data: DeckState }> => {
      const { projectId } = deckParams.parse(request.params);
      await guestDeckProject(db, ctx.config.plansEnabled, projectId, "slides.read");
      const stored = await readStoredDeck(db, projectId);
      return { data: { update: encode(mergedUpdate(stored)), canEdit: false } };
    },
  );

  app.post(
    "/api/projects/:projectId/deck/updates",
    route({
      summary: "Apply an edit to the slides (a Yjs update)",
      action: "slides.edit",
      response: dataAnswer(deckUpdatedSchema),
    }),
    async (request) => applyDeckUpdate(ctx, await requireActor(request), requestInput(request)),
  );

  app.post(
    "/api/projects/:projectId/deck/presence",
    route({
      summary: "Say which slide one is on and what is selected",
      action: "slides.read",
      keepsCaller: true,
      response: dataAnswer(z.null()),
    }),
    async (request) => sendDeckPresence(ctx, await requireActor(request), requestInput(request)),
  );

  app.post(
    "/api/share/:projectId/deck/presence",
    route({
      summary: "Say which slide one is on, as a guest of the public link",
      action: "public",
      accepts: THROUGH_THE_LINK,
      response: dataAnswer(z.null()),
    }),
    async (request) => sendGuestDeckPresence(ctx, throughLink(request), requestInput(request)),
  );

  app.post(
    "/api/projects/:projectId/slides/images",
    route({
      summary: "Upload an image for the slides",
      upload: true,
      action: "slides.edit",
      response: dataAnswer(slideImageUploadSchema),
    }),
    async (request) => {
      const actor = await requireActor(request);
      const { projectId } = deckParams.parse(request.params);
      // Who may upload is asked before the file is read: a refused caller's bytes are never stored.
      await deckProject(db, actor, projectId, "slides.edit");
      const { bytes } = await readFile(request);
      return uploadSlideImage(ctx, actor, { projectId, bytes });
    },
  );
}
