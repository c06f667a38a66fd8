/**
 * The public share link (SPEC §2 /share, /embed, /preview): its settings, what a visitor without an
 * account may read through it, and joining it as a signed-in visitor (added with comment access).
 */
import {
  type Access,
  normalizeSharing,
  type ProjectSharing,
  productOf,
  SHARING_MESSAGES,
  sharingUpdateSchema,
  type VersionView,
} from "@redline/shared";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { type PageRow, projectMembers, projects, type VersionRow } from "../../db/schema/index.ts";
import { NotFoundError, PlanLimitError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { memberActor } from "../../lib/policy.ts";
import { announceChanged } from "../../lib/realtime.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { contentUrls } from "../content/content.urls.ts";
import { authorizeMember } from "../members/members.policy.ts";
import {
  guestsReadOnly,
  guestsReadOnlyOf,
  loadPagesWithVersions,
  loadProject,
} from "../project-access/projects.load.ts";
import { guestAccess, servedSharing } from "../project-access/projects.policy.ts";
import { presentPage, presentVersion } from "../projects/projects.presenter.ts";

const projectParams = z.object({ projectId: z.string().min(1).max(64) });
const versionParams = projectParams.extend({ versionId: z.string().min(1).max(64) });

/** What the link shows: every page or only the first; every version or only each page's latest. */
export function visibleThroughLink(sharing: ProjectSharing, pageRows: PageRow[], versionRows: VersionRow[]) {
  const live = pageRows.filter((page) => !page.isArchived);
  const shownPages = sharing.showAllPages ? live : live.slice(0, 1);
  const shownVersions = versionRows.filter((version) => {
    if (!shownPages.some((page) => page.id === version.pageId)) return false;
    if (sharing.showPageVersions) return true;
    const latest = Math.max(...versionRows.filter((v) => v.pageId === version.pageId).map((v) => v.number));
    return version.number === latest;
  });
  return { pages: shownPages, versions: shownVersions };
}

export async function sharingRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { auth } = ctx;
  const { db } = ctx.database;

  const loadShared = async (projectId: string) => {
    const [project] = await db.select().from(projects).where(eq(projects.id, projectId));
    const sharing = normalizeSharing(project?.sharing);
    const access = guestAccess(
      project ? sharing : null,
      project ? await guestsReadOnly(db, project, ctx.config.plansEnabled) : false,
    );
    if (!project || !access || project.isArchived) {
      throw new NotFoundError(SHARING_MESSAGES.notAccessible, "project-not-accessible");
    }
    return { project, sharing, access };
  };

  app.patch(
    "/api/projects/:projectId/sharing",
    route({ summary: "Public link settings", body: sharingUpdateSchema, action: "sharing.update" }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const loaded = await loadProject(db, actor, projectParams.parse(request.params).projectId);
      const { project, access } = loaded;
      authorizeMember(memberActor(actor.user.id, access), "sharing.update");
      const input = sharingUpdateSchema.parse(request.body);
      // SPEC §6: guest commenting is a plan feature of the project owner's.
      if (input.canComment === true && ctx.config.plansEnabled && !loaded.ownerGuestCommenting)
        throw new PlanLimitError(
          "guest-commenting",
          "Guest comments are not included in this project owner's plan. Upgrade to turn them on.",
          { kind: "feature", product: productOf(project.type), limit: 0 },
        );
      const sharing = { ...normalizeSharing(project.sharing), ...input };
      await db.transaction(async (tx) => {
        await tx.update(projects).set({ sharing }).where(eq(projects.id, project.id));
        await announceChanged(tx, `project:${project.id}`);
      });
      return { data: servedSharing(sharing, guestsReadOnlyOf(loaded, ctx.config.plansEnabled)) };
    },
  );

  app.get(
    "/api/share/:projectId",
    route({ summary: "A project through its public link", action: "public" }),
    async (request) => {
      const { project, sharing, access } = await loadShared(projectParams.parse(request.params).projectId);
      const { pageRows, versionRows } = await loadPagesWithVersions(db, project.id);
      const visible = visibleThroughLink(sharing, pageRows, versionRows);
      return {
        data: {
          id: project.id,
          title: project.title,
          type: project.type,
          access: access satisfies Access,
          sharing: servedSharing(sharing, access === "view"),
          pages: visible.pages.map((page) => presentPage(page, visible.versions)),
        },
      };
    },
  );

  app.get(
    "/api/share/:projectId/versions/:versionId/view",
    route({ summary: "A version through the public link", action: "public" }),
    async (request): Promise<{ data: VersionView }> => {
      const { projectId, versionId } = versionParams.parse(request.params);
      const { project, sharing } = await loadShared(projectId);
      const { pageRows, versionRows } = await loadPagesWithVersions(db, project.id);
      const visible = visibleThroughLink(sharing, pageRows, versionRows);
      const version = visible.versions.find((v) => v.id === versionId);
      const page = version && visible.pages.find((p) => p.id === version.pageId);
      if (!version || !page) throw new NotFoundError("Page does not exist.", "page-not-found");
      return {
        data: {
          version: presentVersion(version),
          page: presentPage(page, visible.versions),
          ...contentUrls(ctx.config, version, { embeddable: true }),
        },
      };
    },
  );

  app.post(
    "/api/share/:projectId/join",
    route({ summary: "Join a project from its link (signed in)", action: "self" }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { projectId } = projectParams.parse(request.params);
      const { project } = await loadShared(projectId);
      const { access } = await loadProject(db, actor, project.id);
      if (access) return { data: { access } };
      // Visiting the demo never puts it among one's own projects.
      if (project.type === "demo") return { data: { access: "comment" } };
      await db.transaction(async (tx) => {
        await tx
          .insert(projectMembers)
          .values({
            id: newId(),
            projectId: project.id,
            userId: actor.user.id,
            access: "comment",
            addedBy: actor.user.id,
          })
          .onConflictDoNothing();
        // The joiner's project list now shows it.
        await announceChanged(tx, `user:${actor.user.id}`);
      });
      const [member] = await db
        .select({ access: projectMembers.access })
        .from(projectMembers)
        .where(and(eq(projectMembers.projectId, project.id), eq(projectMembers.userId, actor.user.id)));
      return { data: { access: member?.access ?? "comment" } };
    },
  );
}
