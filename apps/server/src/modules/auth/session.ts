import { eq } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { Database } from "../../db/index.ts";
import { type UserRow, users } from "../../db/schema/index.ts";
import { ForbiddenError, UnauthorizedError } from "../../lib/errors.ts";
import { authHeaders } from "./auth.routes.ts";
import type { Auth } from "./auth.ts";

export interface Actor {
  user: UserRow;
  sessionCreatedAt: Date;
}

/** The signed-in user behind a request, or null. Reads the user row fresh from the database. */
export async function getActor(auth: Auth, db: Database, request: FastifyRequest): Promise<Actor | null> {
  const session = await auth.api.getSession({ headers: authHeaders(request) });
  if (!session) return null;
  const [user] = await db.select().from(users).where(eq(users.id, session.user.id));
  if (!user) return null;
  return { user, sessionCreatedAt: new Date(session.session.createdAt) };
}

/** Signed in, and (unless `allowUnverified`) with a verified e-mail. */
export async function requireActor(
  auth: Auth,
  db: Database,
  request: FastifyRequest,
  options: { allowUnverified?: boolean } = {},
): Promise<Actor> {
  const actor = await getActor(auth, db, request);
  if (!actor) throw new UnauthorizedError();
  if (!options.allowUnverified && !actor.user.emailVerified) {
    throw new ForbiddenError("Verify your e-mail first.", "auth/email-not-verified");
  }
  return actor;
}
