/**
 * Team branding's writes (SPEC §3 theme, §4, §6 plan-gated; lib/operations.ts): the switch and the three
 * colours, and the logo and icon — uploaded as raster images recognised by their bytes (sharp),
 * re-encoded as PNG and stored under a content-hash key served by /files/*. The owner or a manager of an
 * enabled team acts (`teams.brand`); adding or turning on branding needs the branding entitlement of the
 * team OWNER's plan (402 otherwise), removing or turning it off never does. Every change is told to the
 * team's people (`teams.changed`). Replaced pictures are left to the file collector.
 */
import {
  type BrandingAsset,
  brandingUpdateNeedsPlan,
  DEFAULT_TEAM_THEME,
  TEAM_BRANDING_MESSAGES,
  TEAM_MESSAGES,
  type Team,
  type TeamPlan,
  type TeamTheme,
  teamBrandingUpdateSchema,
} from "@redline/shared";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { type TeamRow, teams } from "../../db/schema/index.ts";
import { NotFoundError, PlanLimitError } from "../../lib/errors.ts";
import { toPng } from "../../lib/images.ts";
import { operation, withParams } from "../../lib/operations.ts";
import type { Actor } from "../auth/session.ts";
import { teamPlanFor } from "./team-plan.ts";
import { teamFor, teamParams } from "./teams.access.ts";
import { teamChanged } from "./teams.load.ts";
import { presentTeam } from "./teams.presenter.ts";

/** Where each picture lives in the theme, and what the answer says. */
const ASSETS = {
  logo: {
    field: "logoURL",
    uploaded: TEAM_BRANDING_MESSAGES.logoUploaded,
    removed: TEAM_BRANDING_MESSAGES.logoRemoved,
  },
  icon: {
    field: "iconURL",
    uploaded: TEAM_BRANDING_MESSAGES.iconUploaded,
    removed: TEAM_BRANDING_MESSAGES.iconRemoved,
  },
} as const satisfies Record<BrandingAsset, { field: keyof TeamTheme; uploaded: string; removed: string }>;

/** SPEC §6: branding is a feature of the team owner's plan (team-plan.ts); refused (402) when not in it. */
function assertTeamMayBrand(plan: TeamPlan, team: TeamRow): void {
  if (plan.branding) return;
  throw new PlanLimitError("branding", TEAM_BRANDING_MESSAGES.planRequired, {
    kind: "feature",
    product: team.product,
    limit: 0,
  });
}

/**
 * Merges `patch` into the team's theme (the defaults when it has none) and the switch, in SQL so two
 * changes at once (a colour and a logo) never undo each other; tells the team's people.
 */
async function saveBranding(
  db: Database,
  teamId: string,
  patch: Partial<TeamTheme>,
  customBranding?: boolean,
): Promise<TeamRow> {
  return db.transaction(async (tx) => {
    const [saved] = await tx
      .update(teams)
      .set({
        ...(Object.keys(patch).length > 0 && {
          theme: sql`coalesce(${teams.theme}, ${JSON.stringify(DEFAULT_TEAM_THEME)}::jsonb) || ${JSON.stringify(patch)}::jsonb`,
        }),
        ...(customBranding !== undefined && { customBranding }),
        modifiedAt: new Date(),
      })
      .where(eq(teams.id, teamId))
      .returning();
    if (!saved) throw new NotFoundError(TEAM_MESSAGES.notAccessible, "team-not-accessible");
    await teamChanged(tx, teamId);
    return saved;
  });
}

export const updateBranding = operation(
  "teams.brand",
  withParams(teamParams, teamBrandingUpdateSchema),
  async (
    ctx,
    actor: Actor,
    { teamId, customBranding, ...colours },
  ): Promise<{ data: Team; message: string }> => {
    const { db } = ctx.database;
    const { team, role, owner } = await teamFor(db, actor, teamId, "teams.brand");
    const plan = teamPlanFor(team, owner, ctx.config.plansEnabled);
    if (brandingUpdateNeedsPlan({ customBranding, ...colours })) assertTeamMayBrand(plan, team);
    const patch = Object.fromEntries(Object.entries(colours).filter(([, value]) => value !== undefined));
    const saved = await saveBranding(db, teamId, patch, customBranding);
    return { data: presentTeam(saved, role, actor.user.id, plan), message: TEAM_BRANDING_MESSAGES.updated };
  },
);

const assetSchema = z.enum(Object.keys(ASSETS) as [BrandingAsset, ...BrandingAsset[]]);

export const uploadBrandingAsset = operation(
  "teams.brand.upload",
  teamParams.extend({ asset: assetSchema, bytes: z.instanceof(Buffer) }),
  async (ctx, actor: Actor, { teamId, asset, bytes }): Promise<{ data: Team; message: string }> => {
    const { db } = ctx.database;
    const { team, role, owner } = await teamFor(db, actor, teamId, "teams.brand");
    const plan = teamPlanFor(team, owner, ctx.config.plansEnabled);
    assertTeamMayBrand(plan, team);
    // Recognised by its bytes, never by the declared type or name; refused before anything is stored.
    const { png, hash } = await toPng(bytes, asset, TEAM_BRANDING_MESSAGES.notImage);
    const key = `branding/${team.id}/${hash}.png`;
    await ctx.storage.putContentAddressed(key, png, hash);
    const saved = await saveBranding(db, teamId, { [ASSETS[asset].field]: `/files/${key}` });
    return { data: presentTeam(saved, role, actor.user.id, plan), message: ASSETS[asset].uploaded };
  },
);

export const removeBrandingAsset = operation(
  "teams.brand.remove",
  teamParams.extend({ asset: assetSchema }),
  async (ctx, actor: Actor, { teamId, asset }): Promise<{ data: Team; message: string }> => {
    const { db } = ctx.database;
    const { team, role, owner } = await teamFor(db, actor, teamId, "teams.brand");
    const plan = teamPlanFor(team, owner, ctx.config.plansEnabled);
    const { field, removed } = ASSETS[asset];
    // Nothing to remove: answered as done, and no theme is made up for a team without one.
    const saved = team.theme?.[field] ? await saveBranding(db, teamId, { [field]: null }) : team;
    return { data: presentTeam(saved, role, actor.user.id, plan), message: removed };
  },
);
