import {
  changesCssFile,
  changesDeletedSchema,
  dataAnswer,
  deleteChangesSchema,
  type InspectChange,
  inspectChangeSchema,
  inspectImageSchema,
  normalizeSharing,
  saveChangesSchema,
  updateChangeSchema,
} from "@redline/shared";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { projects } from "../../db/schema/index.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { requestInput } from "../../lib/operations.ts";
import { LINK_VISITOR, type PolicyActor, policyActorOf } from "../../lib/policy.ts";
import { THROUGH_THE_LINK } from "../../lib/principal.ts";
import { route } from "../../lib/routes.ts";
import { readFile } from "../../lib/uploads.ts";
import { type Actor, requireActor } from "../auth/session.ts";
import { guestsReadOnly, loadPagesWithVersions } from "../project-access/projects.load.ts";
import { guestAccess } from "../project-access/projects.policy.ts";
import { visibleThroughLink } from "../sharing/sharing.load.ts";
import {
  deleteInspectChanges,
  inspectedVersion,
  saveInspectChanges,
  updateInspectChange,
  uploadReplacementImage,
  versionParams,
} from "./inspect.operations.ts";
import { authorizeInspect, withInspectAbilities } from "./inspect.policy.ts";
import { listChanges } from "./inspect.service.ts";

const id = z.string().min(1).max(64);
const _changeParams = z.object({ changeId: id });
const shareParams = z.object({ projectId: id, versionId: id });

export async function inspectRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  const versionOf = (request: { params: unknown }, actor: Actor) =>
    inspectedVersion(db, actor, versionParams.parse(request.params).versionId);
  const present = (reader: PolicyActor, changes: InspectChange[]) =>
    changes.map((change) => withInspectAbilities(reader, change));

  app.get(
    "/api/versions/:versionId/changes",
    route({
      summary: "Suggested edits of a version",
      action: "inspect.read",
      response: dataAnswer(z.array(inspectChangeSchema)),
    }),
    async (request) => {
      const actor = await requireActor(request);
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
      response: dataAnswer(z.array(inspectChangeSchema)),
    }),
    async (request) => saveInspectChanges(ctx, await requireActor(request), requestInput(request)),
  );

  app.patch(
    "/api/changes/:changeId",
    route({
      summary: "Hide, show, resolve or reopen an edit",
      body: updateChangeSchema,
      action: "inspect.resolve",
      response: dataAnswer(inspectChangeSchema),
    }),
    async (request) => updateInspectChange(ctx, await requireActor(request), requestInput(request)),
  );

  app.delete(
    "/api/versions/:versionId/changes",
    route({
      summary: "Delete suggested edits",
      body: deleteChangesSchema,
      action: "inspect.delete",
      response: dataAnswer(changesDeletedSchema),
    }),
    async (request) => deleteInspectChanges(ctx, await requireActor(request), requestInput(request)),
  );

  /** "Copy as CSS" as a file: the open style changes, then the text changes as a comment. */
  app.get(
    "/api/versions/:versionId/changes.css",
    route({
      summary: "The unresolved style edits as a CSS patch",
      action: "inspect.read",
      response: "not-json",
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
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
    route({
      summary: "Upload a replacement image",
      upload: true,
      action: "inspect.create",
      response: dataAnswer(inspectImageSchema),
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
      const { bytes } = await readFile(request);
      const stored = await uploadReplacementImage(ctx, actor, {
        ...(request.params as object),
        bytes,
      } as never);
      reply.status(201);
      return stored;
    },
  );

  app.get(
    "/api/share/:projectId/versions/:versionId/changes",
    route({
      summary: "Suggested edits through the public link (when shown)",
      action: "public",
      accepts: THROUGH_THE_LINK,
      response: dataAnswer(z.array(inspectChangeSchema)),
    }),
    async (request) => {
      const { projectId, versionId } = shareParams.parse(request.params);
      const [project] = await db.select().from(projects).where(eq(projects.id, projectId));
      const sharing = normalizeSharing(project?.sharing);
      const guest = policyActorOf(
        LINK_VISITOR,
        project && !project.isArchived
          ? guestAccess(sharing, await guestsReadOnly(db, project, ctx.config.plansEnabled))
          : null,
      );
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
