/**
 * GitHub's merge gate (issue #30, beyond SPEC): a project linked to a repository (its GitHub integration's
 * destination) puts a "Redline review" commit status on each pull request whose preview is a page of the
 * project — pending while the page is not approved or has open comments, success once it is approved with
 * none open — linking back to the page.
 *
 * How a pull request meets its preview: the repository's webhook (made with the integration, github.ts)
 * tells of `pull_request` (the head commit of an open pull request) and `deployment_status` (a commit
 * deployed, with its environment URL — Vercel, Netlify and GitHub Pages report previews so). A commit known
 * both ways whose preview URL has the origin and path of one of the project's pages is gated
 * (`merge_gate_commits`); a deployment of a commit no open pull request has, or of a URL no page has, is
 * kept and ignored. The gate's switch (`PATCH …/integrations/github/gate`) turns the posting on.
 *
 * The ledger's approvals and comment changes (read after the `merge-gate` consumer's cursor) ask the
 * `merge-gate` queue to bring the page's gated commits to the state the page reads now; a post that GitHub
 * fails (down, 429) is retried with a doubling wait, and each commit's posts are serialised by its row's lock.
 */
import { integrationToggleSchema, MERGE_GATE } from "@redline/shared";
import { and, count, desc, eq, isNotNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { AppContext } from "../../../context.ts";
import type { Database } from "../../../db/index.ts";
import {
  comments,
  mergeGateCommits,
  type ProjectIntegrationRow,
  pages,
  projectIntegrations,
  versions,
} from "../../../db/schema/index.ts";
import { createGithubClient } from "../../../integrations/github/index.ts";
import { ConflictError, NotFoundError } from "../../../lib/errors.ts";
import { newId } from "../../../lib/ids.ts";
import type { LedgerEvent } from "../../../lib/ledger.ts";
import { operation, withParams } from "../../../lib/operations.ts";
import { inTransaction } from "../../../lib/queue.ts";
import type { Actor } from "../../auth/session.ts";
import { loadIntegrationsProject, requireIntegration } from "../integrations.load.ts";
import { presentIntegration } from "../integrations.presenter.ts";
import { GATE_EVENTS, type GateEvent, hookOf } from "./github.ts";
import { githubConfigOf } from "./index.ts";
import { askTracker, trackerConfigOf, trackerSecrets } from "./trackers.load.ts";

export const MERGE_GATE_QUEUE = "merge-gate";
const MAX_ATTEMPTS = 10;

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
type Ctx = Pick<AppContext, "config" | "database" | "queue">;

/** The repository the integration is linked to, `owner/name`, or null before one is chosen. */
function linkedRepo(row: Pick<ProjectIntegrationRow, "config">): string | null {
  const { destination } = trackerConfigOf(row);
  return destination ? `${destination.containerId}/${destination.listId}` : null;
}

/** A preview URL and a page URL are the same page when their origin and path agree (a trailing slash aside). */
function pageKey(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
    return `${parsed.origin}${parsed.pathname.replace(/\/+$/, "") || "/"}`;
  } catch {
    return null;
  }
}

async function pageForPreview(db: Pick<Database, "select">, projectId: string, url: string) {
  const key = pageKey(url);
  if (!key) return null;
  const rows = await db
    .select({ id: pages.id, url: pages.url, isArchived: pages.isArchived })
    .from(pages)
    .where(eq(pages.projectId, projectId))
    .orderBy(pages.isArchived, pages.createdAt);
  return rows.find((page) => pageKey(page.url) === key)?.id ?? null;
}

export async function enqueueGatePost(
  ctx: Pick<AppContext, "queue" | "config">,
  commitId: string,
  options: { tx?: Pick<Database, "execute"> } = {},
): Promise<void> {
  await ctx.queue.send(
    MERGE_GATE_QUEUE,
    { commitId },
    {
      ...(options.tx && { db: inTransaction(options.tx) }),
      retryLimit: MAX_ATTEMPTS,
      retryDelay: ctx.config.webhooks.retryBaseSeconds,
      retryBackoff: true,
    },
  );
}

/**
 * A verified delivery of the linked repository: the commit recorded (a pull request's head, a preview's
 * deployment) and, once it is both and its preview is a page, its status asked for. Another repository's
 * delivery, or one that names no open pull request's commit, changes nothing that is posted.
 */
export async function receiveGateEvent(
  ctx: Ctx,
  row: ProjectIntegrationRow,
  event: GateEvent,
): Promise<number> {
  const repo = linkedRepo(row);
  if (!repo || repo.toLowerCase() !== event.repo.toLowerCase()) return 0;
  const { db } = ctx.database;
  return db.transaction(async (tx) => {
    const pageId = event.kind === "deployment" ? await pageForPreview(tx, row.projectId, event.url) : null;
    const values = event.kind === "pull" ? { pullNumber: event.number } : { previewUrl: event.url, pageId };
    const [saved] = await tx
      .insert(mergeGateCommits)
      .values({
        id: newId(),
        projectId: row.projectId,
        integrationId: row.id,
        repo,
        sha: event.sha,
        ...values,
      })
      .onConflictDoUpdate({
        target: [mergeGateCommits.integrationId, mergeGateCommits.repo, mergeGateCommits.sha],
        set: values,
      })
      .returning();
    if (!saved?.pullNumber || !saved.pageId || !trackerConfigOf(row).mergeGate) return 0;
    await enqueueGatePost(ctx, saved.id, { tx });
    return 1;
  });
}

/** What the page reads now, as a commit status: success once approved with no open comment. */
export async function gateStatusOf(
  db: Pick<Database, "select">,
  pageId: string,
): Promise<{ state: "pending" | "success"; description: string } | null> {
  const [page] = await db.select({ approved: pages.approved }).from(pages).where(eq(pages.id, pageId));
  if (!page) return null;
  const [latest] = await db
    .select({ id: versions.id })
    .from(versions)
    .where(eq(versions.pageId, pageId))
    .orderBy(desc(versions.number))
    .limit(1);
  const [open] = latest
    ? await db
        .select({ n: count() })
        .from(comments)
        .where(and(eq(comments.versionId, latest.id), eq(comments.isResolved, false)))
    : [{ n: 0 }];
  const openCount = Number(open?.n ?? 0);
  if (page.approved && openCount === 0) return { state: "success", description: MERGE_GATE.approved };
  return {
    state: "pending",
    description: openCount > 0 ? MERGE_GATE.open(openCount) : MERGE_GATE.awaiting,
  };
}

/**
 * Brings a gated commit's status to what its page reads now, under its row's lock (two posts of one
 * commit never cross). "posted", or "skipped" (already so, the gate off, the page or integration gone);
 * GitHub failing throws, and the queue tries again.
 */
export async function postGateStatus(ctx: Ctx, commitId: string): Promise<"posted" | "skipped"> {
  const config = githubConfigOf(ctx.config);
  if (!config) return "skipped";
  const posting = ctx.database.db.transaction(async (tx) => {
    const [commit] = await tx
      .select()
      .from(mergeGateCommits)
      .where(eq(mergeGateCommits.id, commitId))
      .for("update");
    if (!commit?.pageId || !commit.pullNumber) return "skipped";
    const [integration] = await tx
      .select()
      .from(projectIntegrations)
      .where(eq(projectIntegrations.id, commit.integrationId));
    const token = integration ? trackerSecrets(ctx).open(integration).token : undefined;
    if (!integration?.isEnabled || !trackerConfigOf(integration).mergeGate || !token) return "skipped";
    const status = await gateStatusOf(tx, commit.pageId);
    if (!status) return "skipped";
    if (status.state === commit.postedState && status.description === commit.postedDescription)
      return "skipped";
    const [owner = "", repo = ""] = commit.repo.split("/");
    await createGithubClient(config, token).createCommitStatus({ owner, repo }, commit.sha, {
      ...status,
      context: MERGE_GATE.context,
      targetUrl: `${ctx.config.appUrl}/project/${commit.projectId}/${commit.pageId}`,
    });
    await tx
      .update(mergeGateCommits)
      .set({
        postedState: status.state,
        postedDescription: status.description,
        postedAt: new Date(),
        lastError: null,
      })
      .where(eq(mergeGateCommits.id, commit.id));
    return "posted" as const;
  });
  try {
    return await posting;
  } catch (error) {
    // Kept once the lock's transaction (which the failure rolled back) has ended.
    await ctx.database.db
      .update(mergeGateCommits)
      .set({ lastError: (error as Error).message.slice(0, 500) })
      .where(eq(mergeGateCommits.id, commitId));
    throw error;
  }
}

/** Every gated commit of the project's pages whose gate is on (optionally one page's), asked to follow. */
async function enqueuePageCommits(
  ctx: Pick<AppContext, "queue" | "config">,
  tx: Tx,
  where: { pageId: string } | { integrationId: string },
) {
  const rows = await tx
    .select({ id: mergeGateCommits.id })
    .from(mergeGateCommits)
    .innerJoin(projectIntegrations, eq(projectIntegrations.id, mergeGateCommits.integrationId))
    .where(
      and(
        "pageId" in where
          ? eq(mergeGateCommits.pageId, where.pageId)
          : eq(mergeGateCommits.integrationId, where.integrationId),
        isNotNull(mergeGateCommits.pageId),
        isNotNull(mergeGateCommits.pullNumber),
        eq(projectIntegrations.isEnabled, true),
        sql`${projectIntegrations.config} ->> 'mergeGate' = 'true'`,
      ),
    );
  for (const row of rows) await enqueueGatePost(ctx, row.id, { tx });
}

interface Recorded extends LedgerEvent {
  /** comment.created / updated / deleted */
  ref?: { pageId: string };
  /** page.approval */
  version?: { pageId: string };
}

const ACCEPTED = new Set(["page.approval", "comment.created", "comment.updated", "comment.deleted"]);

export async function handleGateEvent(ctx: Pick<AppContext, "queue" | "config">, tx: Tx, event: Recorded) {
  const pageId = event.type === "page.approval" ? event.version?.pageId : event.ref?.pageId;
  if (pageId) await enqueuePageCommits(ctx, tx, { pageId });
}

export function startMergeGateConsumer(ctx: Pick<AppContext, "config" | "queue" | "ledger">): Promise<void> {
  return ctx.ledger.consume<Recorded>({
    name: "merge-gate",
    accepts: (event): event is Recorded => ACCEPTED.has(event.type),
    handle: (tx, event) => handleGateEvent(ctx, tx, event),
  });
}

/** Works the merge gate's posts in this process (every app process and worker may). */
export async function startMergeGatePosts(ctx: Ctx): Promise<void> {
  await ctx.queue.createQueue(MERGE_GATE_QUEUE);
  await ctx.queue.work<{ commitId: string }>(
    MERGE_GATE_QUEUE,
    { batchSize: 4, pollingIntervalSeconds: 0.5 },
    async (jobs) => {
      await Promise.all(jobs.map((job) => postGateStatus(ctx, job.data.commitId)));
    },
  );
}

/**
 * The gate's switch: on, the linked repository's webhook is made to hear pull requests and deployments
 * (one made before the gate existed heard only issues) and the commits already known get their status;
 * off, nothing more is posted (statuses already there stay as they were).
 */
export const setMergeGate = operation(
  "integrations.github.gate",
  withParams(z.object({ projectId: z.string().min(1).max(64) }), integrationToggleSchema),
  async (ctx, actor: Actor, { projectId, isEnabled }) => {
    await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
    const { db } = ctx.database;
    const row = await requireIntegration(db, projectId, "github");
    const secrets = trackerSecrets(ctx).open(row);
    if (!secrets.token)
      throw new NotFoundError("This integration is not connected.", "integration-not-connected");
    if (!linkedRepo(row)) throw new ConflictError("Choose a repository first.", "no-destination");
    const config = githubConfigOf(ctx.config);
    const hookId = secrets.hookId;
    if (isEnabled && config && hookId) {
      const { repo, hookId: id } = hookOf(hookId);
      await askTracker(() =>
        createGithubClient(config, secrets.token!).addWebhookEvents(repo, id, [...GATE_EVENTS]),
      );
    }
    const saved = await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(projectIntegrations)
        .set({
          config: sql`${projectIntegrations.config} || ${JSON.stringify({ mergeGate: isEnabled })}::jsonb`,
          modifiedAt: new Date(),
        })
        .where(eq(projectIntegrations.id, row.id))
        .returning();
      if (isEnabled) await enqueuePageCommits(ctx, tx, { integrationId: row.id });
      return updated!;
    });
    return {
      data: presentIntegration(saved, [], {}),
      message: isEnabled ? MERGE_GATE.enabled : MERGE_GATE.disabled,
    };
  },
);
