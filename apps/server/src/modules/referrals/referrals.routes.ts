/**
 * Refer & Earn's routes: the signed-in person's link and counts, and the link itself — `/r/{code}` leaves
 * the code in a cookie for the sign-up that follows and opens the sign-up page (a signed-in visitor, e.g.
 * the referrer trying their own link, is taken to their projects and nothing is left behind).
 */
import {
  dataAnswer,
  REFERRAL_COOKIE,
  REFERRAL_COOKIE_DAYS,
  referralCodeSchema,
  referralSchema,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { route } from "../../lib/routes.ts";
import { getActor, requireActor } from "../auth/session.ts";
import { readReferral } from "./referrals.operations.ts";

const linkParams = z.object({ code: z.string().max(64) });

export async function referralRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.get(
    "/api/me/referral",
    route({
      summary: "Your referral link and what it earned (Refer & Earn)",
      action: "self",
      response: dataAnswer(referralSchema),
    }),
    async (request) => readReferral(ctx, await requireActor(request), requestInput(request)),
  );

  app.get(
    "/r/:code",
    route({
      summary: "A referral link: remembered for the sign-up, then the sign-up page",
      action: "public",
      response: "not-json", // a redirect
    }),
    async (request, reply) => {
      const { code } = linkParams.parse(request.params);
      if (await getActor(request)) return reply.redirect("/projects");
      const parsed = referralCodeSchema.safeParse(code);
      if (parsed.success) {
        const secure = ctx.config.appUrl.startsWith("https:") ? "; Secure" : "";
        reply.header(
          "set-cookie",
          `${REFERRAL_COOKIE}=${parsed.data}; Path=/; Max-Age=${REFERRAL_COOKIE_DAYS * 86_400}; HttpOnly; SameSite=Lax${secure}`,
        );
      }
      return reply.redirect("/signup");
    },
  );
}
