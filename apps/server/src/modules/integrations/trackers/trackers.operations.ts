/**
 * The writes on a project's task trackers (ADR 0033: one operation each): connect from the return route,
 * choose where cards go (and the automatic rule), enable/disable, disconnect, create and delete a card,
 * and the tracker's own signed webhook telling that a card was closed or reopened. A call to the tracker
 * that fails (down, 429, a revoked token) answers SPEC §8's 'Something went wrong' (502) and leaves
 * Redline's side as it was; a card that could not be made yet stays pending and is retried by the queue.
 */
import {
  type CardSubject,
  createCardSchema,
  integrationToggleSchema,
  TRACKER_MESSAGES,
  TRACKER_NAMES,
  TRACKER_TERMS,
  type TrackerCard,
  type TrackerType,
  trackerConnectSchema,
  trackerSettingsSchema,
  trackerTypeSchema,
} from "@redline/shared";
import { and, eq, ne } from "drizzle-orm";
import { z } from "zod";
import type { AppContext } from "../../../context.ts";
import {
  comments,
  inspectChanges,
  type ProjectIntegrationRow,
  projectIntegrations,
  type TrackerCardRow,
  trackerCards,
  users,
} from "../../../db/schema/index.ts";
import { BadRequestError, ConflictError, NotFoundError, UnauthorizedError } from "../../../lib/errors.ts";
import { newId } from "../../../lib/ids.ts";
import { operation, withParams } from "../../../lib/operations.ts";
import { selfUrl } from "../../../lib/self-url.ts";
import type { Actor } from "../../auth/session.ts";
import { commentRef, recordCommentEvent } from "../../comments/comments.events.ts";
import { presentOne } from "../../comments/comments.service.ts";
import { recordInspectEvent } from "../../inspect/inspect.events.ts";
import { loadIntegrationsProject, requireIntegration } from "../integrations.load.ts";
import { presentIntegration } from "../integrations.presenter.ts";
import { receiveGateEvent } from "./github.gate.ts";
import { type GateEvent, readGateEvent } from "./github.ts";
import { type InboundChange, isTrackerFailure, type TrackerSecrets } from "./tracker.ts";
import { enqueueCardJob, makeCard } from "./trackers.cards.ts";
import { cardContent } from "./trackers.content.ts";
import {
  askTracker,
  requireTracker,
  TrackerUnavailableError,
  trackerConfigOf,
  trackerSecrets,
} from "./trackers.load.ts";
import { invalidState, readTrackerState } from "./trackers.state.ts";
import { withTrackerToken } from "./trackers.tokens.ts";

const projectParams = z.object({ projectId: z.string().min(1).max(64) });
const trackerParams = projectParams.extend({ tracker: trackerTypeSchema });
const cardParams = trackerParams.extend({ cardId: z.string().min(1).max(64) });

/** How far a tracker's action may lie in the past (or future) before it is refused as stale or replayed. */
export const INBOUND_MAX_AGE_MS = 10 * 60 * 1000;
/** How long a webhook's handshake is awaited once its creation is asked for (Asana answers within it). */
const HANDSHAKE_WINDOW_MS = 60 * 1000;

/** Where a tracker's webhook calls back for an integration (Trello signs this URL with the body). */
export const inboundUrl = (ctx: Pick<AppContext, "config">, tracker: TrackerType, integrationId: string) =>
  `${ctx.config.trackers[tracker]?.embedded ? selfUrl(ctx.config) : ctx.config.appUrl}/api/integrations/${tracker}/webhook/${integrationId}`;

export function presentCard(row: TrackerCardRow): TrackerCard {
  return {
    id: row.id,
    tracker: row.tracker,
    subject: row.subject,
    subjectId: row.subjectId,
    externalId: row.externalId,
    url: row.url,
    createdBy: row.createdBy,
    isClosed: row.isClosed,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}

const presentRow = (row: ProjectIntegrationRow) => presentIntegration(row, [], {});

/** Best effort: a webhook left at the tracker only calls a URL that now answers 404. */
async function unwatchQuietly(ctx: AppContext, row: ProjectIntegrationRow) {
  const { token, hookId } = trackerSecrets(ctx).open(row);
  if (!token || !hookId) return;
  const tracker = requireTracker(ctx, row.type as TrackerType);
  await withTrackerToken(ctx, tracker, row, (current) => tracker.unwatch(current, hookId)).catch(
    () => undefined,
  );
}

/** Changes an integration's sealed secrets under its row's lock (a refresh or a handshake may be writing). */
async function updateSecrets(
  ctx: AppContext,
  integrationId: string,
  change: (secrets: TrackerSecrets) => TrackerSecrets | null,
): Promise<ProjectIntegrationRow | null> {
  const box = trackerSecrets(ctx);
  return ctx.database.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(projectIntegrations)
      .where(eq(projectIntegrations.id, integrationId))
      .for("update");
    const next = row ? change(box.open(row)) : null;
    if (!row || !next) return null;
    const [saved] = await tx
      .update(projectIntegrations)
      .set({ secrets: box.seal(next), modifiedAt: new Date() })
      .where(eq(projectIntegrations.id, integrationId))
      .returning();
    return saved ?? null;
  });
}

/** The return route's hand-over: a token (Trello) or a code (ClickUp, GitHub) and the state it started with. */
export const connectTracker = operation(
  "integrations.tracker.connect",
  withParams(z.object({ tracker: trackerTypeSchema }), trackerConnectSchema),
  async (ctx, actor: Actor, { tracker: type, state, token, code }) => {
    const { projectId, userId } = readTrackerState(ctx.config.authSecret, state, type);
    await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
    // Started by someone else (a link sent to another editor): it connects nothing.
    if (userId !== actor.user.id) throw invalidState();
    const tracker = requireTracker(ctx, type);
    if (type === "trello" ? !token : !code)
      throw new BadRequestError(`${TRACKER_NAMES[type]} did not grant access.`, "access-denied");
    const granted = await askTracker(() => tracker.connect({ token, code }));
    const { db } = ctx.database;
    const [previous] = await db
      .select()
      .from(projectIntegrations)
      .where(and(eq(projectIntegrations.projectId, projectId), eq(projectIntegrations.type, type)));
    if (previous) await unwatchQuietly(ctx, previous);
    const values = {
      config: { account: granted.account, destination: null, autoCreate: false },
      secrets: trackerSecrets(ctx).seal({
        token: granted.token,
        refreshToken: granted.refreshToken,
        expiresAt: granted.expiresAt,
      }),
      isEnabled: true,
      createdBy: actor.user.id,
      modifiedAt: new Date(),
    };
    const [saved] = await db
      .insert(projectIntegrations)
      .values({ id: newId(), projectId, type, ...values })
      .onConflictDoUpdate({ target: [projectIntegrations.projectId, projectIntegrations.type], set: values })
      .returning();
    if (type === "trello")
      await db.update(users).set({ trelloConnected: true }).where(eq(users.id, actor.user.id));
    return { data: presentRow(saved!), projectId, message: TRACKER_MESSAGES.connected(type) };
  },
);

/** Where cards go (a board and list / a list) and the automatic rule; the tracker's webhook follows it. */
export const saveTrackerSettings = operation(
  "integrations.tracker.settings",
  withParams(trackerParams, trackerSettingsSchema),
  async (ctx, actor: Actor, { projectId, tracker: type, containerId, listId, autoCreate }) => {
    await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
    const { db } = ctx.database;
    const row = await requireIntegration(db, projectId, type);
    const box = trackerSecrets(ctx);
    const secrets = box.open(row);
    if (!secrets.token)
      throw new NotFoundError("This integration is not connected.", "integration-not-connected");
    const tracker = requireTracker(ctx, type);
    const containers = await askTracker(() =>
      withTrackerToken(ctx, tracker, row, (token) => tracker.destinations(token)),
    );
    const container = containers.find((c) => c.id === containerId);
    const list = container?.lists.find((l) => l.id === listId);
    if (!container || !list)
      throw new BadRequestError(
        type === "trello"
          ? "Choose a list of one of your boards."
          : `Choose one of your ${TRACKER_TERMS[type].lists}.`,
        "unknown-destination",
      );
    const destination = { containerId, containerName: container.name, listId, listName: list.name };
    const current = trackerConfigOf(row).destination;
    if (!secrets.hookId || current?.containerId !== containerId || current.listId !== listId) {
      // Asana's handshake arrives while the webhook is being made: it is accepted only in this window,
      // and its secret waits aside until the webhook exists (the old one's still signs meanwhile).
      const settle = (made: { hookId: string; hookSecret?: string } | null) =>
        updateSecrets(ctx, row.id, ({ handshakeUntil: _, pendingHookSecret, ...now }) =>
          made ? { ...now, hookId: made.hookId, hookSecret: made.hookSecret ?? pendingHookSecret } : now,
        );
      if (tracker.handshake)
        await updateSecrets(ctx, row.id, (now) => ({
          ...now,
          handshakeUntil: Date.now() + HANDSHAKE_WINDOW_MS,
        }));
      let made: { hookId: string; hookSecret?: string };
      try {
        made = await askTracker(() =>
          withTrackerToken(ctx, tracker, row, (token) =>
            tracker.watch(token, destination, inboundUrl(ctx, type, row.id)),
          ),
        );
      } catch (error) {
        if (tracker.handshake) await settle(null);
        throw error;
      }
      // Read again under the lock: a refresh may have renewed the token meanwhile.
      await settle(made);
      if (secrets.hookId) await unwatchQuietly(ctx, row);
    }
    const [saved] = await db
      .update(projectIntegrations)
      .set({ config: { ...trackerConfigOf(row), destination, autoCreate }, modifiedAt: new Date() })
      .where(eq(projectIntegrations.id, row.id))
      .returning();
    return { data: presentRow(saved!), message: "Settings saved." };
  },
);

export const setTrackerEnabled = operation(
  "integrations.tracker.toggle",
  withParams(trackerParams, integrationToggleSchema),
  async (ctx, actor: Actor, { projectId, tracker: type, isEnabled }) => {
    await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
    const { db } = ctx.database;
    const row = await requireIntegration(db, projectId, type);
    const [saved] = await db
      .update(projectIntegrations)
      .set({ isEnabled, modifiedAt: new Date() })
      .where(eq(projectIntegrations.id, row.id))
      .returning();
    return {
      data: presentRow(saved!),
      message: `${TRACKER_NAMES[type]} integrations ${isEnabled ? "enabled" : "disabled"}`,
    };
  },
);

/** SPEC §7: the record goes (its token and webhook with it), so the project's board/list ids are cleared. */
export const disconnectTracker = operation(
  "integrations.tracker.disconnect",
  trackerParams,
  async (ctx, actor: Actor, { projectId, tracker: type }) => {
    await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
    const { db } = ctx.database;
    const [deleted] = await db
      .delete(projectIntegrations)
      .where(and(eq(projectIntegrations.projectId, projectId), eq(projectIntegrations.type, type)))
      .returning();
    if (!deleted) throw new NotFoundError("This integration is not connected.", "integration-not-connected");
    await unwatchQuietly(ctx, deleted);
    if (type === "trello" && deleted.createdBy) await refreshTrelloConnected(ctx, deleted.createdBy);
    // Cards not made yet will not be: their rows go (made ones keep their link).
    await db
      .delete(trackerCards)
      .where(
        and(
          eq(trackerCards.projectId, projectId),
          eq(trackerCards.tracker, type),
          eq(trackerCards.status, "pending"),
        ),
      );
    return { message: TRACKER_MESSAGES.disconnected(type) };
  },
);

/** SPEC §3's user flag: whether any of the person's projects still has the Trello they connected. */
async function refreshTrelloConnected(ctx: AppContext, userId: string) {
  const { db } = ctx.database;
  const [still] = await db
    .select({ id: projectIntegrations.id })
    .from(projectIntegrations)
    .where(and(eq(projectIntegrations.type, "trello"), eq(projectIntegrations.createdBy, userId)))
    .limit(1);
  await db
    .update(users)
    .set({ trelloConnected: Boolean(still) })
    .where(eq(users.id, userId));
}

const addedMessage = (type: TrackerType, subject: CardSubject) =>
  subject === "edit" ? TRACKER_MESSAGES.editAdded(type) : TRACKER_MESSAGES.commentAdded(type);
const deletedMessage = (type: TrackerType, subject: CardSubject) =>
  subject === "edit" ? TRACKER_MESSAGES.editDeleted(type) : TRACKER_MESSAGES.commentDeleted(type);

/**
 * "Create card": from a comment thread, an edit suggestion or a ticket. Made at once when the tracker
 * answers (201, SPEC's 'Comment/Edit added to …'); when it fails, the card stays pending, the queue tries
 * again later, and the caller hears 'Something went wrong' (502). One card per thing and tracker.
 */
export const createTrackerCard = operation(
  "integrations.tracker.card.create",
  withParams(trackerParams, createCardSchema),
  async (ctx, actor: Actor, { projectId, tracker: type, subject, id }) => {
    await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
    const { db } = ctx.database;
    const row = await requireIntegration(db, projectId, type);
    if (!row.isEnabled)
      throw new ConflictError(`${TRACKER_NAMES[type]} is disabled for this project.`, "integration-disabled");
    if (!trackerConfigOf(row).destination)
      throw new ConflictError(
        type === "trello"
          ? "Choose a board and a list first."
          : `Choose a ${TRACKER_TERMS[type].list} first.`,
        "no-destination",
      );
    await cardContent(ctx, db, projectId, subject, id); // 404 for a thing not in this project
    const [made] = await db
      .insert(trackerCards)
      .values({ id: newId(), projectId, tracker: type, subject, subjectId: id, createdBy: actor.user.id })
      .onConflictDoNothing({ target: [trackerCards.tracker, trackerCards.subject, trackerCards.subjectId] })
      .returning();
    const [card] = made
      ? [made]
      : await db
          .select()
          .from(trackerCards)
          .where(
            and(
              eq(trackerCards.tracker, type),
              eq(trackerCards.subject, subject),
              eq(trackerCards.subjectId, id),
            ),
          );
    if (card!.status === "created")
      throw new ConflictError(
        `This already has a ${TRACKER_NAMES[type]} ${TRACKER_TERMS[type].card}.`,
        "card-exists",
      );
    try {
      await makeCard(ctx, card!.id);
    } catch (error) {
      if (!isTrackerFailure(error)) throw error;
      await enqueueCardJob(
        ctx,
        { op: "create", cardId: card!.id },
        { delaySeconds: ctx.config.webhooks.retryBaseSeconds },
      );
      throw new TrackerUnavailableError();
    }
    const [saved] = await db.select().from(trackerCards).where(eq(trackerCards.id, card!.id));
    if (saved?.status !== "created") throw new TrackerUnavailableError();
    return { data: presentCard(saved), message: addedMessage(type, subject) };
  },
);

/** Deletes the card at the tracker (one already gone there counts as deleted) and its link here. */
export const deleteTrackerCard = operation(
  "integrations.tracker.card.delete",
  cardParams,
  async (ctx, actor: Actor, { projectId, tracker: type, cardId }) => {
    await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
    const { db } = ctx.database;
    const [card] = await db
      .select()
      .from(trackerCards)
      .where(
        and(
          eq(trackerCards.id, cardId),
          eq(trackerCards.projectId, projectId),
          eq(trackerCards.tracker, type),
        ),
      );
    if (!card) throw new NotFoundError("No such card.", "card-not-found");
    if (card.externalId) {
      const row = await requireIntegration(db, projectId, type);
      if (!trackerSecrets(ctx).open(row).token)
        throw new NotFoundError("This integration is not connected.", "integration-not-connected");
      const tracker = requireTracker(ctx, type);
      const externalId = card.externalId;
      try {
        await withTrackerToken(ctx, tracker, row, (token) => tracker.deleteCard(token, externalId));
      } catch (error) {
        if (!(isTrackerFailure(error) && error.status === 404)) {
          if (isTrackerFailure(error)) throw new TrackerUnavailableError();
          throw error;
        }
      }
    }
    await db.delete(trackerCards).where(eq(trackerCards.id, card.id));
    return { message: deletedMessage(type, card.subject) };
  },
);

/**
 * The changes with their closed state: one the event did not carry (Asana) is read from the tracker, for
 * the project's own cards only. A card the tracker no longer has (404) is left alone; a tracker that
 * cannot answer now fails the delivery (502), which the tracker sends again.
 */
async function readChanges(
  ctx: AppContext,
  row: ProjectIntegrationRow,
  changes: InboundChange[],
): Promise<(InboundChange & { closed: boolean })[]> {
  const tracker = requireTracker(ctx, row.type as TrackerType);
  const read = new Map<string, boolean | null>();
  const readClosed = async (externalId: string): Promise<boolean | null> => {
    const [card] = await ctx.database.db
      .select({ id: trackerCards.id })
      .from(trackerCards)
      .where(
        and(
          eq(trackerCards.tracker, tracker.type),
          eq(trackerCards.externalId, externalId),
          eq(trackerCards.projectId, row.projectId),
        ),
      );
    const isClosed = tracker.isClosed;
    if (!card || !isClosed) return null;
    try {
      return await withTrackerToken(ctx, tracker, row, (token) => isClosed(token, externalId));
    } catch (error) {
      if (isTrackerFailure(error) && !error.isTransient) return null;
      if (isTrackerFailure(error)) throw new TrackerUnavailableError();
      throw error;
    }
  };
  const known: (InboundChange & { closed: boolean })[] = [];
  for (const change of changes) {
    if (!read.has(change.externalId) && change.closed === null)
      read.set(change.externalId, await readClosed(change.externalId));
    const closed = change.closed ?? read.get(change.externalId);
    if (typeof closed === "boolean") known.push({ ...change, closed });
  }
  return known;
}

/**
 * A tracker's webhook set-up request (Asana's handshake: `X-Hook-Secret`, sent while POST /webhooks is in
 * flight): its secret is kept, sealed, for the integration the callback URL names — only while that
 * integration awaits one (saveTrackerSettings opened the window, and takes the secret up once the webhook
 * exists), so nobody else can plant a secret — and the headers to echo are returned. Null: the request is not a handshake (a delivery follows).
 */
export async function acceptTrackerHandshake(
  ctx: AppContext,
  input: {
    tracker: TrackerType;
    integrationId: string;
    headers: Record<string, string | string[] | undefined>;
  },
): Promise<Record<string, string> | null> {
  const handshake = requireTracker(ctx, input.tracker).handshake?.({
    rawBody: "",
    headers: input.headers,
    callbackUrl: inboundUrl(ctx, input.tracker, input.integrationId),
  });
  if (!handshake) return null;
  let awaited = false;
  await updateSecrets(ctx, input.integrationId, (secrets) => {
    awaited = (secrets.handshakeUntil ?? 0) > Date.now();
    if (!awaited) return null;
    const { handshakeUntil: _, ...rest } = secrets;
    return { ...rest, pendingHookSecret: handshake.hookSecret };
  });
  if (!awaited)
    throw new UnauthorizedError("No webhook of this integration is being set up.", "unexpected-handshake");
  return handshake.headers;
}

/**
 * The tracker's webhook (the integration principal, proven by the tracker's signature): a card closed or
 * reopened there resolves or reopens its comment or edit here. Forged (bad signature) → 401; an action
 * older than ten minutes (a replay) → 400; nothing changed either way. Our own outbound change comes back
 * as an action too: its subject already reads so, so it changes nothing; one older than the card's last
 * applied action (delivered out of order) is ignored.
 */
export async function receiveTrackerWebhook(
  ctx: AppContext,
  input: {
    tracker: TrackerType;
    integrationId: string;
    /** The secret in the callback URL (Jira's). */
    key?: string;
    rawBody: string;
    headers: Record<string, string | string[] | undefined>;
  },
): Promise<{ applied: number }> {
  const { db } = ctx.database;
  const [row] = await db
    .select()
    .from(projectIntegrations)
    .where(and(eq(projectIntegrations.id, input.integrationId), eq(projectIntegrations.type, input.tracker)));
  const tracker = requireTracker(ctx, input.tracker);
  const secrets = row ? trackerSecrets(ctx).open(row) : {};
  let changes: Awaited<ReturnType<typeof tracker.verifyInbound>>;
  try {
    changes = await tracker.verifyInbound(
      {
        rawBody: input.rawBody,
        headers: input.headers,
        callbackUrl: inboundUrl(ctx, input.tracker, input.integrationId),
        key: input.key,
      },
      secrets,
    );
  } catch {
    throw new BadRequestError("The request is not a webhook of this tracker.", "invalid-webhook");
  }
  if (changes === null)
    throw new UnauthorizedError("The webhook's signature is not valid.", "invalid-signature");
  if (!row) throw new NotFoundError("This integration is not connected.", "integration-not-connected");
  // GitHub's pull requests and deployments, for the merge gate (github.gate.ts).
  let gate: GateEvent | null = null;
  try {
    gate = input.tracker === "github" ? readGateEvent(input.headers, input.rawBody) : null;
  } catch {
    throw new BadRequestError("The request is not a webhook of this tracker.", "invalid-webhook");
  }
  const now = Date.now();
  if (
    [...changes, ...(gate ? [gate] : [])].some(
      (change) => !(Math.abs(now - change.at.getTime()) <= INBOUND_MAX_AGE_MS),
    )
  )
    throw new BadRequestError("The webhook's action is too old.", "stale-webhook");
  if (!row.isEnabled) return { applied: 0 };
  let applied = gate ? await receiveGateEvent(ctx, row, gate) : 0;
  for (const change of await readChanges(ctx, row, changes)) {
    applied += await db.transaction(async (tx) => {
      const [card] = await tx
        .select()
        .from(trackerCards)
        .where(
          and(
            eq(trackerCards.tracker, input.tracker),
            eq(trackerCards.externalId, change.externalId),
            eq(trackerCards.projectId, row.projectId),
          ),
        )
        .for("update");
      // Webhooks may arrive out of order: an action older than the last one applied is stale news.
      if (!card || (card.trackerChangedAt && change.at < card.trackerChangedAt)) return 0;
      await tx
        .update(trackerCards)
        .set({ isClosed: change.closed, trackerChangedAt: change.at })
        .where(eq(trackerCards.id, card.id));
      if (card.subject === "edit") {
        const [edit] = await tx
          .update(inspectChanges)
          .set({ isResolved: change.closed, resolvedBy: null, modifiedAt: new Date() })
          .where(and(eq(inspectChanges.id, card.subjectId), ne(inspectChanges.isResolved, change.closed)))
          .returning({ projectId: inspectChanges.projectId, versionId: inspectChanges.versionId });
        if (edit) await recordInspectEvent(tx, { type: "inspect.updated", ...edit });
        return 1;
      }
      // A ticket's card follows the ticket (outbound); the ticket itself is resolved on the board.
      if (card.subject !== "comment") return 1;
      const [comment] = await tx.select().from(comments).where(eq(comments.id, card.subjectId)).for("update");
      if (!comment || comment.isResolved === change.closed) return 1;
      await tx
        .update(comments)
        .set({ isResolved: change.closed, resolvedBy: null, modifiedAt: new Date() })
        .where(eq(comments.id, comment.id));
      await recordCommentEvent(tx, {
        type: "comment.updated",
        actor: { integration: input.tracker },
        ref: commentRef(comment),
        resolves: change.closed,
        comment: (await presentOne(tx, comment.id)) ?? undefined,
      });
      return 1;
    });
  }
  return { applied };
}
