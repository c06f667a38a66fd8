/**
 * Comments through the public link, for visitors without an account. A guest names themselves once
 * (kept in their browser) and sends that identity with each write (`x-redline-guest`, SPEC §3 guest
 * identity, or `public` for 'Anonymous'). Writing needs the link's canComment; reading only the link.
 */
import {
  createCommentSchema,
  normalizeSharing,
  parseGuestIdentity,
  replySchema,
  SHARING_MESSAGES,
} from "@redline/shared";
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { comments, projects } from "../../db/schema/index.ts";
import { BadRequestError, NotFoundError } from "../../lib/errors.ts";
import type { PolicyActor } from "../../lib/policy.ts";
import { route } from "../../lib/routes.ts";
import { guestsReadOnly, loadPagesWithVersions } from "../project-access/projects.load.ts";
import { guestAccess } from "../project-access/projects.policy.ts";
import { visibleThroughLink } from "../sharing/sharing.routes.ts";
import { authorizeComment, withCommentAbilities } from "./comments.policy.ts";
import { addReply, createComment, listComments } from "./comments.service.ts";

export const GUEST_HEADER = "x-redline-guest";
const versionParams = z.object({
  projectId: z.string().min(1).max(64),
  versionId: z.string().min(1).max(64),
});
const commentParams = z.object({
  projectId: z.string().min(1).max(64),
  commentId: z.string().min(1).max(64),
});

/**
 * What a guest of the public link sees of a project right now: the guest as a policy actor (the link's
 * access) and the versions the link shows; null when the project is gone or archived or its link is off.
 * The guest routes below and the guest socket's comment events (comments.guest.realtime.ts) ask this.
 */
export async function linkGuestView(db: Database, plansEnabled: boolean, projectId: string) {
  const [project] = await db.select().from(projects).where(eq(projects.id, projectId));
  if (!project || project.isArchived) return null;
  const sharing = normalizeSharing(project.sharing);
  if (!guestAccess(sharing)) return null;
  const access = guestAccess(sharing, await guestsReadOnly(db, project, plansEnabled));
  if (!access) return null;
  const { pageRows, versionRows } = await loadPagesWithVersions(db, project.id);
  const guest: PolicyActor = { userId: null, access, isGuest: true };
  return { guest, versions: visibleThroughLink(sharing, pageRows, versionRows).versions };
}

export async function commentsGuestRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  /** The version, if the public link is on and shows it. */
  const loadVisibleVersion = async (projectId: string, versionId: string) => {
    const view = await linkGuestView(db, ctx.config.plansEnabled, projectId);
    if (!view) throw new NotFoundError(SHARING_MESSAGES.notAccessible, "project-not-accessible");
    const version = view.versions.find((v) => v.id === versionId);
    if (!version) throw new NotFoundError("Page does not exist.", "page-not-found");
    return { version, guest: view.guest };
  };

  const guestOf = (request: FastifyRequest) => {
    const raw = request.headers[GUEST_HEADER];
    const identity = typeof raw === "string" ? raw : undefined;
    if (!identity || !parseGuestIdentity(identity)) {
      throw new BadRequestError("Tell us your name before commenting.", "guest-identity");
    }
    return identity;
  };

  app.get(
    "/api/share/:projectId/versions/:versionId/comments",
    route({ summary: "Comments through the public link", action: "public" }),
    async (request) => {
      const { projectId, versionId } = versionParams.parse(request.params);
      const { version, guest } = await loadVisibleVersion(projectId, versionId);
      authorizeComment(guest, "comments.read");
      return { data: (await listComments(db, version.id)).map((c) => withCommentAbilities(guest, c)) };
    },
  );

  app.post(
    "/api/share/:projectId/versions/:versionId/comments",
    route({
      summary: "Comment as a guest (when the link allows it)",
      body: createCommentSchema,
      action: "public",
    }),
    async (request, reply) => {
      const { projectId, versionId } = versionParams.parse(request.params);
      const { version, guest } = await loadVisibleVersion(projectId, versionId);
      authorizeComment(guest, "comments.create");
      const guestIdentity = guestOf(request);
      const input = createCommentSchema.parse(request.body);
      reply.status(201);
      const created = await createComment(
        db,
        version,
        { guestIdentity },
        { ...input, attachments: [] },
        ctx.config.plansEnabled,
      );
      return { data: withCommentAbilities(guest, created) };
    },
  );

  app.post(
    "/api/share/:projectId/comments/:commentId/replies",
    route({ summary: "Reply as a guest (when the link allows it)", body: replySchema, action: "public" }),
    async (request, reply) => {
      const { projectId, commentId } = commentParams.parse(request.params);
      const [comment] = await db.select().from(comments).where(eq(comments.id, commentId));
      if (!comment || comment.projectId !== projectId)
        throw new NotFoundError("Comment not found.", "comment-not-found");
      const { guest } = await loadVisibleVersion(projectId, comment.versionId);
      authorizeComment(guest, "comments.reply");
      const guestIdentity = guestOf(request);
      const input = replySchema.parse(request.body);
      reply.status(201);
      const replied = await addReply(
        db,
        comment,
        { guestIdentity },
        { ...input, attachments: [] },
        ctx.config.plansEnabled,
      );
      return { data: withCommentAbilities(guest, replied) };
    },
  );
}
