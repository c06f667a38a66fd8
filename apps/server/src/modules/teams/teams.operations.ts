/**
 * The writes of a team itself (lib/operations.ts): create and rename. Each authorizes through
 * teams.policy.ts and tells the team's people (`teams.changed` in their user rooms) in its transaction.
 */
import { createTeamSchema, defaultTeamName, renameTeamSchema, TEAM_MESSAGES } from "@redline/shared";
import { eq } from "drizzle-orm";
import { teams } from "../../db/schema/index.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { record } from "../../lib/ledger.ts";
import { operation, withParams } from "../../lib/operations.ts";
import type { Actor } from "../auth/session.ts";
import { teamPlanFor } from "./team-plan.ts";
import { teamFor, teamParams } from "./teams.access.ts";
import { teamChanged } from "./teams.load.ts";
import { presentTeam } from "./teams.presenter.ts";

export const createTeam = operation("teams.create", createTeamSchema, async (ctx, actor: Actor, input) => {
  const team = await ctx.database.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(teams)
      .values({
        id: newId(),
        product: input.product,
        name: input.name || defaultTeamName(actor.user.displayName),
        ownerId: actor.user.id,
      })
      .returning();
    await teamChanged(tx, created!.id);
    await record(tx, {
      type: "team.created",
      teamId: created!.id,
      product: input.product,
      actor: { userId: actor.user.id },
    });
    return created!;
  });
  const plan = teamPlanFor(team, actor.user, ctx.config.plansEnabled);
  return { data: presentTeam(team, "owner", actor.user.id, plan), message: TEAM_MESSAGES.created };
});

export const renameTeam = operation(
  "teams.rename",
  withParams(teamParams, renameTeamSchema),
  async (ctx, actor: Actor, { teamId, name }) => {
    const { db } = ctx.database;
    const { role, owner } = await teamFor(db, actor, teamId, "teams.rename");
    const team = await db.transaction(async (tx) => {
      const [renamed] = await tx
        .update(teams)
        .set({ name, modifiedAt: new Date() })
        .where(eq(teams.id, teamId))
        .returning();
      if (!renamed) throw new NotFoundError(TEAM_MESSAGES.notAccessible, "team-not-accessible");
      await teamChanged(tx, teamId);
      return renamed;
    });
    const plan = teamPlanFor(team, owner, ctx.config.plansEnabled);
    return { data: presentTeam(team, role, actor.user.id, plan), message: TEAM_MESSAGES.renamed };
  },
);
