/**
 * Analytics from the ledger (SPEC §7, issue #34): a durable consumer turns what happened into the events
 * SPEC lists — a comment pinned (NewComment), suggested edits saved (NewEdit), a project or team created,
 * a sign-up or sign-in, a subscription holding its plan for the first time (UpgradeCompleted) — and the
 * browser's own reports (analytics.routes.ts), into rows of `analytics_events`, in the transaction that
 * advances its cursor: each once. The request that caused an event paid only for recording it (the write's
 * own ledger row, or one row for a browser report); the rows are written after the response.
 *
 * An event recorded for a browser that asks not to be tracked (`doNotTrack`, lib/request-scope.ts) is kept
 * without its person and properties, and never forwarded. With forwarding configured (POSTHOG_API_KEY),
 * each other row is also sent to the product-analytics service by a job (analytics.forward.ts).
 */
import type { AnalyticsEventName } from "@redline/shared";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { analyticsEvents } from "../../db/schema/index.ts";
import { newId } from "../../lib/ids.ts";
import type { LedgerEvent } from "../../lib/ledger.ts";
import { enqueueForward } from "./analytics.forward.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** The ledger events analytics reads, as their modules record them. */
interface Recorded extends LedgerEvent {
  doNotTrack?: boolean;
  actor?: { userId?: string };
  /** comment.created */
  ref?: { projectId: string };
  /** inspect.saved */
  version?: { projectId: string };
  editsCount?: number;
  /** project.created */
  projectId?: string;
  projectType?: string;
  /** team.created */
  product?: string;
  /** user.signed-up / user.signed-in / subscription.started / analytics.reported */
  userId?: string | null;
  source?: string;
  planId?: string;
  provider?: string;
  /** analytics.reported */
  name?: string;
  properties?: Record<string, unknown>;
}

export interface AnalyticsRow {
  name: AnalyticsEventName | "user-event";
  userId: string | null;
  properties: Record<string, unknown>;
}

/** What an event counts as, or null when analytics does not count it. */
export function analyticsOf(event: Recorded): AnalyticsRow | null {
  const by = event.actor?.userId ?? null;
  switch (event.type) {
    case "comment.created":
      return { name: "NewComment", userId: by, properties: { projectId: event.ref?.projectId, guest: !by } };
    case "inspect.saved":
      return {
        name: "NewEdit",
        userId: by,
        properties: { projectId: event.version?.projectId, edits: event.editsCount },
      };
    case "project.created":
      return { name: "NewProject", userId: by, properties: { type: event.projectType } };
    case "team.created":
      return { name: "NewTeam", userId: by, properties: { product: event.product } };
    case "user.signed-up":
      return { name: "SignUp", userId: event.userId ?? null, properties: { source: event.source } };
    case "user.signed-in":
      return { name: "SignIn", userId: event.userId ?? null, properties: {} };
    case "subscription.started":
      return {
        name: "UpgradeCompleted",
        userId: event.userId ?? null,
        properties: { planId: event.planId, provider: event.provider },
      };
    case "analytics.reported":
      return {
        name: event.name as AnalyticsRow["name"],
        userId: event.userId ?? null,
        properties: event.properties ?? {},
      };
    default:
      return null;
  }
}

const COUNTED = new Set([
  "comment.created",
  "inspect.saved",
  "project.created",
  "team.created",
  "user.signed-up",
  "user.signed-in",
  "subscription.started",
  "analytics.reported",
]);

/** Drops what is undefined (JSON would), keeping the stored properties as the event had them. */
const defined = (properties: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(properties).filter(([, value]) => value !== undefined));

export async function handleAnalyticsEvent(
  ctx: Pick<AppContext, "config" | "queue">,
  tx: Tx,
  event: Recorded,
  createdAt: Date,
): Promise<void> {
  const counted = analyticsOf(event);
  if (!counted) return;
  const isPrivate = event.doNotTrack === true;
  const id = newId();
  await tx.insert(analyticsEvents).values({
    id,
    name: counted.name,
    userId: isPrivate ? null : counted.userId,
    properties: isPrivate ? {} : defined(counted.properties),
    createdAt,
  });
  if (ctx.config.productAnalytics && !isPrivate) await enqueueForward(ctx, id, tx);
}

export function startAnalyticsConsumer(ctx: Pick<AppContext, "config" | "queue" | "ledger">): Promise<void> {
  return ctx.ledger.consume<Recorded>({
    name: "analytics",
    accepts: (event): event is Recorded => COUNTED.has(event.type),
    handle: (tx, event, recorded) => handleAnalyticsEvent(ctx, tx, event, recorded.createdAt),
  });
}
