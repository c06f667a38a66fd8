import {
  dataAnswer,
  MAX_UPLOAD_BYTES,
  photoUploadSchema,
  profilePhotoSchema,
  profileUpdateSchema,
  userSchema,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { route } from "../../lib/routes.ts";
import { adminActorOf } from "../admin/admin.policy.ts";
import { requireActor } from "../auth/session.ts";
import { countersFor } from "./counters.ts";
import { updateProfile, uploadProfilePhoto } from "./users.operations.ts";
import { presentUser } from "./users.presenter.ts";

/** The signed-in user's own record: read, partial update, photo upload. */
export async function usersRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { database } = ctx;
  const { db } = database;

  app.get(
    "/api/me",
    route({ summary: "The signed-in user", action: "self", response: dataAnswer(userSchema) }),
    async (request) => {
      const actor = await requireActor(request, { allowUnverified: true });
      const { user } = actor;
      // Only an operator learns they are one (the admin routes answer 404 to everyone else).
      const isAdmin = adminActorOf(ctx.config.adminEmails, actor).access === "admin";
      return {
        data: {
          ...presentUser(user, ctx.config.plansEnabled, await countersFor(db, user)),
          ...(isAdmin && { isAdmin: true }),
        },
      };
    },
  );

  app.patch(
    "/api/me",
    route({
      summary: "Update name, e-mail preferences, sound",
      body: profileUpdateSchema,
      action: "self",
      response: dataAnswer(userSchema),
    }),
    async (request) =>
      updateProfile(ctx, await requireActor(request, { allowUnverified: true }), requestInput(request)),
  );

  app.post(
    "/api/me/photo",
    route(
      {
        summary: "Set the profile photo (data URL)",
        body: photoUploadSchema,
        action: "self",
        response: dataAnswer(profilePhotoSchema),
      },
      { bodyLimit: Math.ceil(MAX_UPLOAD_BYTES * 1.4) + 1024 },
    ),
    async (request) =>
      uploadProfilePhoto(ctx, await requireActor(request, { allowUnverified: true }), requestInput(request)),
  );
}
