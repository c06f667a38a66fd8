/**
 * The instance admin's writes (lib/operations.ts): disable and enable a user or a team, and grant a user a
 * plan. Each authorizes through admin.policy.ts and writes its `admin_audit` row in its own transaction,
 * so no action happens unrecorded. Disabling a user ends their sessions (deleting the rows announces the
 * change to every process's session cache, migration 0008); their API tokens stop answering with them.
 */
import { type AdminAction, adminGrantSchema } from "@redline/shared";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { adminAudit, sessions, teams, users } from "../../db/schema/index.ts";
import { ConflictError, NotFoundError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { operation, withParams } from "../../lib/operations.ts";
import {
  mintLifetimeCode,
  mintPartnerCode,
  mintPrivilegeToken,
  redeemLifetimeCode,
  redeemPartnerCode,
  redeemPrivilege,
} from "../plans/grants.ts";
import { teamChanged } from "../teams/teams.load.ts";
import { type AdminPolicyActor, authorizeAdmin, isAdminEmail } from "./admin.policy.ts";
import { presentAdminTeam, presentAdminUser } from "./admin.presenter.ts";
import { loadAdminTeam } from "./admin.reads.ts";

/** The operator behind an admin request. */
export interface AdminCaller {
  actor: AdminPolicyActor;
  userId: string;
  email: string;
}

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

async function audit(
  tx: Tx,
  caller: AdminCaller,
  action: AdminAction,
  target: { kind: "user" | "team"; id: string; label: string },
  details: Record<string, unknown> = {},
) {
  await tx.insert(adminAudit).values({
    id: newId(),
    adminUserId: caller.userId,
    adminEmail: caller.email,
    action,
    targetKind: target.kind,
    targetId: target.id,
    targetLabel: target.label,
    details,
  });
}

export const adminUserParams = z.object({ userId: z.string().min(1).max(64) });
export const adminTeamParams = z.object({ teamId: z.string().min(1).max(64) });
const notFound = () => new NotFoundError("No such user.", "not-found");

async function lockUser(tx: Tx, userId: string) {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
  if (!user || user.isDeleted) throw notFound();
  return user;
}

function setUserDisabled(name: "admin.users.disable" | "admin.users.enable", disabled: boolean) {
  return operation(name, adminUserParams, async (ctx, caller: AdminCaller, { userId }) => {
    authorizeAdmin(caller.actor, "admin.users.disable");
    const user = await ctx.database.db.transaction(async (tx) => {
      const row = await lockUser(tx, userId);
      if (disabled && isAdminEmail(ctx.config.adminEmails, row.email))
        throw new ConflictError(
          "An operator cannot be disabled; take them out of ADMIN_EMAILS first.",
          "admin-target",
        );
      // Already so: nothing happened, nothing to audit.
      if (Boolean(row.disabledAt) === disabled) return row;
      const [updated] = await tx
        .update(users)
        .set({ disabledAt: disabled ? new Date() : null, updatedAt: new Date() })
        .where(eq(users.id, userId))
        .returning();
      if (disabled) await tx.delete(sessions).where(eq(sessions.userId, userId));
      await audit(tx, caller, disabled ? "users.disable" : "users.enable", {
        kind: "user",
        id: userId,
        label: row.email,
      });
      return updated!;
    });
    return { data: presentAdminUser(user, ctx.config.adminEmails) };
  });
}

export const disableUser = setUserDisabled("admin.users.disable", true);
export const enableUser = setUserDisabled("admin.users.enable", false);

/**
 * What the grant CLI hands out, given straight to the user: the same single-use grant minted and redeemed in
 * one step (recorded in redeemed_grants, so `npm run grant -- revoke` and refunds treat it alike), or the
 * privilege taken back.
 */
export const grantUserPlan = operation(
  "admin.users.grant",
  withParams(adminUserParams, adminGrantSchema),
  async (ctx, caller: AdminCaller, input) => {
    authorizeAdmin(caller.actor, "admin.users.grant");
    const secret = ctx.config.authSecret;
    const user = await ctx.database.db.transaction(async (tx) => {
      const row = await lockUser(tx, input.userId);
      // Nested transactions are savepoints on both drivers: the grant and its audit commit together.
      const db = tx as unknown as Database;
      let updated = row;
      if (input.kind === "privilege") {
        if (input.plan === null) {
          [updated] = (await tx
            .update(users)
            .set({ privilege: null, privilegeUntil: null, updatedAt: new Date() })
            .where(eq(users.id, row.id))
            .returning()) as [typeof row];
        } else {
          const token = mintPrivilegeToken(secret, input.plan, 1);
          updated = await redeemPrivilege(db, secret, row.id, input.plan, token);
        }
      } else if (input.kind === "lifetime") {
        updated = await redeemLifetimeCode(db, secret, row.id, mintLifetimeCode(secret, input.tier));
      } else {
        updated = await redeemPartnerCode(db, secret, row.id, mintPartnerCode(secret, input.plan));
      }
      const { userId: _, ...details } = input;
      await audit(tx, caller, "users.grant", { kind: "user", id: row.id, label: row.email }, details);
      return updated;
    });
    return { data: presentAdminUser(user, ctx.config.adminEmails) };
  },
);

function setTeamDisabled(name: "admin.teams.disable" | "admin.teams.enable", disabled: boolean) {
  return operation(name, adminTeamParams, async (ctx, caller: AdminCaller, { teamId }) => {
    authorizeAdmin(caller.actor, "admin.teams.disable");
    const { db } = ctx.database;
    await db.transaction(async (tx) => {
      const [team] = await tx.select().from(teams).where(eq(teams.id, teamId)).for("update");
      if (!team) throw new NotFoundError("No such team.", "not-found");
      if (team.isDisabled === disabled) return;
      await tx
        .update(teams)
        .set({ isDisabled: disabled, modifiedAt: new Date() })
        .where(eq(teams.id, teamId));
      // Its people's screens refetch the team: the disabled-team notice shows (or goes) at once.
      await teamChanged(tx, teamId);
      await audit(tx, caller, disabled ? "teams.disable" : "teams.enable", {
        kind: "team",
        id: teamId,
        label: team.name,
      });
    });
    const loaded = await loadAdminTeam(db, teamId, ctx.config.plansEnabled);
    if (!loaded) throw new NotFoundError("No such team.", "not-found");
    return { data: presentAdminTeam(loaded) };
  });
}

export const disableTeam = setTeamDisabled("admin.teams.disable", true);
export const enableTeam = setTeamDisabled("admin.teams.enable", false);
