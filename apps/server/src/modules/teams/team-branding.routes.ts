/**
 * Team branding over HTTP (SPEC §3 theme, §4, §6): the switch and colours, the logo and icon — each an
 * operation of team-branding.operations.ts, which authorizes and checks the plan.
 */
import {
  type BrandingAsset,
  dataAnswer,
  type Team,
  teamBrandingUpdateSchema,
  teamSchema,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { route } from "../../lib/routes.ts";
import { readFile } from "../../lib/uploads.ts";
import { requireActor } from "../auth/session.ts";
import { removeBrandingAsset, updateBranding, uploadBrandingAsset } from "./team-branding.operations.ts";

const ASSETS: BrandingAsset[] = ["logo", "icon"];

export async function teamBrandingRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.patch(
    "/api/teams/:teamId/branding",
    route({
      summary: "Turn custom branding on or off, set the theme's colours",
      body: teamBrandingUpdateSchema,
      action: "teams.brand",
      response: dataAnswer(teamSchema),
    }),
    async (request): Promise<{ data: Team; message: string }> =>
      updateBranding(ctx, await requireActor(request), requestInput(request)),
  );

  for (const asset of ASSETS) {
    app.post(
      `/api/teams/:teamId/branding/${asset}`,
      route({
        summary: `Upload the team's ${asset} (PNG, JPEG, WebP or GIF, at most 5 MB)`,
        upload: true,
        action: "teams.brand",
        response: dataAnswer(teamSchema),
      }),
      async (request): Promise<{ data: Team; message: string }> => {
        const actor = await requireActor(request);
        const { bytes } = await readFile(request);
        return uploadBrandingAsset(ctx, actor, { ...(request.params as { teamId: string }), asset, bytes });
      },
    );

    app.delete(
      `/api/teams/:teamId/branding/${asset}`,
      route({
        summary: `Remove the team's ${asset} (the shipped default shows)`,
        action: "teams.brand",
        response: dataAnswer(teamSchema),
      }),
      async (request): Promise<{ data: Team; message: string }> =>
        removeBrandingAsset(ctx, await requireActor(request), { ...requestInput(request), asset }),
    );
  }
}
