/**
 * Inspect mode's suggested edits (SPEC §3 Inspect change): the project's readers list them and download
 * them as a `.css` patch; editors save, hide, resolve and delete them and upload replacement images.
 * Through the public link they are readable only while the link's showEdits is on.
 */
import { createHash } from "node:crypto";
import {
  changesCssFile,
  deleteChangesSchema,
  INSPECT_MESSAGES,
  type InspectChange,
  normalizeSharing,
  saveChangesSchema,
  updateChangeSchema,
} from "@redline/shared";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { assets, inspectChanges, projects } from "../../db/schema/index.ts";
import { BadRequestError, NotFoundError } from "../../lib/errors.ts";
import { detectImage, IMAGE_FORMATS } from "../../lib/images.ts";
import { memberActor, type PolicyActor } from "../../lib/policy.ts";
import { route } from "../../lib/routes.ts";
import { readFile } from "../../lib/uploads.ts";
import { requireActor } from "../auth/session.ts";
import { assertRoomToStore } from "../plans/storage.ts";
import {
  guestsReadOnly,
  loadPagesWithVersions,
  loadProject,
  loadVersion,
} from "../project-access/projects.load.ts";
import { guestAccess } from "../project-access/projects.policy.ts";
import { visibleThroughLink } from "../sharing/sharing.routes.ts";
import { authorizeInspect, withInspectAbilities } from "./inspect.policy.ts";
import { deleteChanges, listChanges, saveChanges, updateChange } from "./inspect.service.ts";

const id = z.string().min(1).max(64);
const versionParams = z.object({ versionId: id });
const changeParams = z.object({ changeId: id });
const shareParams = z.object({ projectId: id, versionId: id });

export async function inspectRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { auth, storage } = ctx;
  const { db } = ctx.database;

  const versionOf = async (request: { params: unknown }, actor: Awaited<ReturnType<typeof requireActor>>) => {
    const loaded = await loadVersion(db, actor, versionParams.parse(request.params).versionId);
    return { ...loaded, reader: memberActor(actor.user.id, loaded.access) };
  };
  const present = (reader: PolicyActor, changes: InspectChange[]) =>
    changes.map((change) => withInspectAbilities(reader, change));

  app.get(
    "/api/versions/:versionId/changes",
    route({ summary: "Suggested edits of a version", action: "inspect.read" }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { version, reader } = await versionOf(request, actor);
      authorizeInspect(reader, "inspect.read");
      return { data: present(reader, await listChanges(db, version)) };
    },
  );

  app.post(
    "/api/versions/:versionId/changes",
    route({
      summary: "Save suggested edits (merged per element)",
      body: saveChangesSchema,
      action: "inspect.create",
    }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { version, reader } = await versionOf(request, actor);
      authorizeInspect(reader, "inspect.create");
      const input = saveChangesSchema.parse(request.body);
      await saveChanges(db, version, actor.user.id, input.changes, ctx.config.plansEnabled);
      return { data: present(reader, await listChanges(db, version)), message: INSPECT_MESSAGES.saved };
    },
  );

  app.patch(
    "/api/changes/:changeId",
    route({
      summary: "Hide, show, resolve or reopen an edit",
      body: updateChangeSchema,
      action: "inspect.resolve",
    }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const [change] = await db
        .select()
        .from(inspectChanges)
        .where(eq(inspectChanges.id, changeParams.parse(request.params).changeId));
      if (!change) throw new NotFoundError("Suggestion not found.", "change-not-found");
      const { access } = await loadProject(db, actor, change.projectId);
      const reader = memberActor(actor.user.id, access);
      const input = updateChangeSchema.parse(request.body);
      if (input.isResolved !== undefined || input.isHidden === undefined)
        authorizeInspect(reader, "inspect.resolve");
      if (input.isHidden !== undefined) authorizeInspect(reader, "inspect.hide");
      return { data: withInspectAbilities(reader, await updateChange(db, change, actor.user.id, input)) };
    },
  );

  app.delete(
    "/api/versions/:versionId/changes",
    route({ summary: "Delete suggested edits", body: deleteChangesSchema, action: "inspect.delete" }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { version, reader } = await versionOf(request, actor);
      authorizeInspect(reader, "inspect.delete");
      const { ids } = deleteChangesSchema.parse(request.body);
      const deleted = await deleteChanges(db, version, ids);
      return { data: { deleted }, message: INSPECT_MESSAGES.deleted };
    },
  );

  /** "Copy as CSS" as a file: the open style changes, then the text changes as a comment. */
  app.get(
    "/api/versions/:versionId/changes.css",
    route({ summary: "The unresolved style edits as a CSS patch", action: "inspect.read" }),
    async (request, reply) => {
      const actor = await requireActor(auth, db, request);
      const { version, page, reader } = await versionOf(request, actor);
      authorizeInspect(reader, "inspect.read");
      const slug = page.title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, "")
        .slice(0, 60);
      return reply
        .header("content-type", "text/css; charset=utf-8")
        .header(
          "content-disposition",
          `attachment; filename="${slug || "page"}-v${version.number}-edits.css"`,
        )
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "private, no-cache")
        .send(changesCssFile(await listChanges(db, version)));
    },
  );

  /**
   * A replacement image (images only, ≤ 5 MB, recognised by its bytes), stored as a content-addressed
   * asset so the snapshot (whose CSP allows only its own origin's assets) can show it at `path`.
   */
  app.post(
    "/api/versions/:versionId/changes/images",
    route({ summary: "Upload a replacement image", upload: true, action: "inspect.create" }),
    async (request, reply) => {
      const actor = await requireActor(auth, db, request);
      const { project, reader } = await versionOf(request, actor);
      authorizeInspect(reader, "inspect.create");
      const { bytes } = await readFile(request);
      const image = await detectImage(bytes);
      if (!image) throw new BadRequestError("Upload a JPEG, PNG, WebP or GIF image.", "unsupported-file");
      const sha = createHash("sha256").update(bytes).digest("hex");
      const [known] = await db.select().from(assets).where(eq(assets.sha256, sha));
      const ext = known?.ext ?? (image.format === "jpeg" ? "jpg" : image.format);
      const key = `assets/${sha}.${ext}`;
      await assertRoomToStore(db, project, { key, bytes: bytes.length }, ctx.config.plansEnabled);
      await storage.putContentAddressed(key, bytes, sha);
      if (!known) {
        await db
          .insert(assets)
          .values({ sha256: sha, contentType: IMAGE_FORMATS[image.format], ext, size: bytes.length })
          .onConflictDoNothing();
      }
      reply.status(201);
      return {
        data: { path: `/a/${sha}.${ext}`, imageDimensions: { width: image.width, height: image.height } },
      };
    },
  );

  app.get(
    "/api/share/:projectId/versions/:versionId/changes",
    route({ summary: "Suggested edits through the public link (when shown)", action: "public" }),
    async (request) => {
      const { projectId, versionId } = shareParams.parse(request.params);
      const [project] = await db.select().from(projects).where(eq(projects.id, projectId));
      const sharing = normalizeSharing(project?.sharing);
      const guest: PolicyActor = {
        userId: null,
        access:
          project && !project.isArchived
            ? guestAccess(sharing, await guestsReadOnly(db, project, ctx.config.plansEnabled))
            : null,
        isGuest: true,
      };
      authorizeInspect(guest, "inspect.read", { linkShowsEdits: sharing.showEdits });
      const { pageRows, versionRows } = await loadPagesWithVersions(db, projectId);
      const version = visibleThroughLink(sharing, pageRows, versionRows).versions.find(
        (v) => v.id === versionId,
      );
      if (!version) throw new NotFoundError("Page does not exist.", "page-not-found");
      // Hidden suggestions are the editors' working state, not part of what the link shows.
      return {
        data: present(
          guest,
          (await listChanges(db, version)).filter((change) => !change.isHidden),
        ),
      };
    },
  );
}
