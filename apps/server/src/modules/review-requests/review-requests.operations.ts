/**
 * `/request-review`, the write (SPEC §2 public views; lib/operations.ts): a visitor, signed in or not, asks a project's owner for a
 * review of a URL through the link the owner shared (`?project={id}`). The owner alone hears of it — an
 * in-app notification (`notify`, in one transaction with nothing else) and a mail through the durable
 * outbox, Reply-To the visitor — so the page can never send mail to an address a visitor chose. Limited
 * per visitor's IP and per project, counted only for well-formed requests to a real project.
 */
import {
  REVIEW_REQUEST_MESSAGES,
  REVIEW_REQUESTS_PER_IP_PER_HOUR,
  REVIEW_REQUESTS_PER_PROJECT_PER_DAY,
  reviewRequestSchema,
} from "@redline/shared";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { projects, users } from "../../db/schema/index.ts";
import { NotFoundError, TooManyRequestsError } from "../../lib/errors.ts";
import { operation } from "../../lib/operations.ts";
import { notify } from "../notifications/notify.ts";
import { countHit } from "../rate-limits/api-rate-limit.ts";
import { DEMO_PROJECT_ID } from "../sharing/demo.ts";
import { reviewRequestMail } from "./review-requests.mail.ts";

const HOUR_MS = 60 * 60 * 1000;

/** Who asks: a visitor of the public page, known by their address. */
export interface Visitor {
  ip: string;
}

/** The project a review link names and its owner, or 404: missing, archived, the demo, a deleted owner. */
export async function reviewTargetOf(db: Database, projectId: string) {
  const [target] = await db
    .select({
      projectId: projects.id,
      projectTitle: projects.title,
      ownerId: users.id,
      ownerName: users.displayName,
      ownerEmail: users.email,
    })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .where(and(eq(projects.id, projectId), eq(projects.isArchived, false), eq(users.isDeleted, false)));
  if (!target || target.projectId === DEMO_PROJECT_ID)
    throw new NotFoundError(REVIEW_REQUEST_MESSAGES.invalidLink, "review-link-invalid");
  return target;
}

async function limit(ctx: AppContext, key: string, max: number, windowMs: number) {
  if (!ctx.config.rateLimitEnabled) return;
  const { current, ttl } = await countHit(ctx.database.executeSql, `review:${key}`, windowMs);
  if (current <= max) return;
  const seconds = Math.max(1, Math.ceil(ttl / 1000));
  throw new TooManyRequestsError(
    `Too many review requests. Try again in ${Math.ceil(seconds / 60)} min.`,
    "rate-limited",
    seconds,
  );
}

export const requestReview = operation(
  "reviewRequests.create",
  reviewRequestSchema,
  async (ctx, visitor: Visitor, input) => {
    const target = await reviewTargetOf(ctx.database.db, input.projectId);
    // Per visitor and link: reaching an owner at all takes a link they shared, so a visitor's
    // budget is kept per project (one visitor cannot use up a link for everyone else either).
    await limit(ctx, `ip:${visitor.ip}:${target.projectId}`, REVIEW_REQUESTS_PER_IP_PER_HOUR, HOUR_MS);
    await limit(ctx, `project:${target.projectId}`, REVIEW_REQUESTS_PER_PROJECT_PER_DAY, 24 * HOUR_MS);
    await ctx.database.db.transaction((tx) =>
      notify(tx, {
        on: "review.requested",
        actor: { guestName: input.name },
        projectId: target.projectId,
        url: input.url,
        email: input.email,
      }),
    );
    await ctx.mailer.send(
      await reviewRequestMail({
        to: target.ownerEmail,
        projectTitle: target.projectTitle,
        requester: { name: input.name, email: input.email },
        url: input.url,
        message: input.message,
        projectUrl: `${ctx.config.appUrl}/project/${target.projectId}`,
      }),
    );
    return { message: REVIEW_REQUEST_MESSAGES.sent };
  },
);
