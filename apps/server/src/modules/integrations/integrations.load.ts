/**
 * A project's integrations as an operation needs them: the project loaded with the caller's access,
 * authorized through the integrations policy, the owner's plan checked (SPEC §6: integrations are a
 * plan feature; 402 with the limit, so the client shows the upgrade prompt), and the project's records.
 */
import { INTEGRATION_MESSAGES, type IntegrationType, productOf } from "@redline/shared";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { type ProjectIntegrationRow, projectIntegrations, users } from "../../db/schema/index.ts";
import { NotFoundError, PlanLimitError } from "../../lib/errors.ts";
import { policyActorOf } from "../../lib/policy.ts";
import { secretBox } from "../../lib/secret-box.ts";
import type { Actor } from "../auth/session.ts";
import { entitlementsFor } from "../plans/plans.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { authorizeIntegrations, type IntegrationAction } from "./integrations.policy.ts";

/** What an integration keeps sealed (lib/secret-box.ts). */
export interface IntegrationSecrets {
  /** The webhook's signing secret (`whsec_…`) and, for 24 h after a rotation, the one it replaced. */
  signing?: string;
  previousSigning?: string;
  previousUntil?: string;
  /** Slack's bot token (`xoxb-…`). */
  botToken?: string;
}

export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

export function integrationSecrets(ctx: Pick<AppContext, "config">) {
  const box = secretBox(ctx.config.authSecret);
  return {
    seal: (secrets: IntegrationSecrets) => box.seal(secrets),
    open: (row: Pick<ProjectIntegrationRow, "secrets">): IntegrationSecrets =>
      row.secrets ? box.open<IntegrationSecrets>(row.secrets) : {},
  };
}

/** The secrets that sign now: the current one, and a rotated one while its 24 hours last. */
export function signingSecrets(secrets: IntegrationSecrets, now = new Date()): string[] {
  const previousValid =
    secrets.previousSigning && secrets.previousUntil && new Date(secrets.previousUntil) > now;
  return [secrets.signing, previousValid ? secrets.previousSigning : undefined].filter(
    (secret): secret is string => typeof secret === "string",
  );
}

export async function loadIntegrationsProject(
  ctx: AppContext,
  actor: Actor,
  projectId: string,
  action: IntegrationAction,
) {
  const { db } = ctx.database;
  const loaded = await loadProject(db, actor, projectId);
  authorizeIntegrations(policyActorOf(actor, loaded.access), action);
  const [owner] = await db.select().from(users).where(eq(users.id, loaded.project.ownerId));
  const product = productOf(loaded.project.type);
  if (!owner || !entitlementsFor(owner, product, ctx.config.plansEnabled).integrations)
    throw new PlanLimitError("integrations", INTEGRATION_MESSAGES.planRequired, {
      kind: "feature",
      product,
      limit: 0,
    });
  return loaded;
}

export async function integrationOf(
  db: Pick<Database, "select">,
  projectId: string,
  type: IntegrationType,
): Promise<ProjectIntegrationRow | null> {
  const [row] = await db
    .select()
    .from(projectIntegrations)
    .where(and(eq(projectIntegrations.projectId, projectId), eq(projectIntegrations.type, type)));
  return row ?? null;
}

export async function requireIntegration(
  db: Pick<Database, "select">,
  projectId: string,
  type: IntegrationType,
): Promise<ProjectIntegrationRow> {
  const row = await integrationOf(db, projectId, type);
  if (!row) throw new NotFoundError("This integration is not connected.", "integration-not-connected");
  return row;
}
