import { MAX_UPLOAD_BYTES, MESSAGES, photoUploadSchema, profileUpdateSchema } from "@redline/shared";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { users } from "../../db/schema/index.ts";
import { toJpeg } from "../../lib/images.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { countersFor } from "./counters.ts";
import { presentUser } from "./users.presenter.ts";

/** The signed-in user's own record: read, partial update, photo upload. */
export async function usersRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { auth, database, storage } = ctx;
  const { db } = database;

  app.get("/api/me", route({ summary: "The signed-in user", action: "self" }), async (request) => {
    const { user } = await requireActor(auth, db, request, { allowUnverified: true });
    return { data: presentUser(user, ctx.config.plansEnabled, await countersFor(db, user)) };
  });

  app.patch(
    "/api/me",
    route({ summary: "Update name, e-mail preferences, sound", body: profileUpdateSchema, action: "self" }),
    async (request) => {
      const actor = await requireActor(auth, db, request, { allowUnverified: true });
      const input = profileUpdateSchema.parse(request.body);
      // Maps merge in SQL so two tabs toggling different flags never undo each other.
      const [updated] = await db
        .update(users)
        .set({
          ...(input.displayName !== undefined && { displayName: input.displayName }),
          ...(input.photoURL !== undefined && { photoURL: input.photoURL }),
          ...(input.notificationSound !== undefined && { notificationSound: input.notificationSound }),
          ...(input.signupSource !== undefined && { signupSource: input.signupSource }),
          ...(input.emailPreferences && {
            emailPreferences: sql`${users.emailPreferences} || ${JSON.stringify(input.emailPreferences)}::jsonb`,
          }),
          ...(input.onboarding && {
            onboarding: sql`${users.onboarding} || ${JSON.stringify(input.onboarding)}::jsonb`,
          }),
          updatedAt: new Date(),
        })
        .where(eq(users.id, actor.user.id))
        .returning();
      return {
        data: presentUser(updated!, ctx.config.plansEnabled, await countersFor(db, updated!)),
        message: MESSAGES.profileUpdated,
      };
    },
  );

  app.post(
    "/api/me/photo",
    route(
      { summary: "Set the profile photo (data URL)", body: photoUploadSchema, action: "self" },
      { bodyLimit: Math.ceil(MAX_UPLOAD_BYTES * 1.4) + 1024 },
    ),
    async (request) => {
      const actor = await requireActor(auth, db, request, { allowUnverified: true });
      const { dataUrl } = photoUploadSchema.parse(request.body);
      const { jpeg, hash } = await toJpeg(
        Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64"),
        "avatar",
      );
      const key = `avatars/${actor.user.id}/${hash}.jpg`;
      await storage.put(key, jpeg);
      return { data: { photoURL: `/files/${key}` } };
    },
  );
}
