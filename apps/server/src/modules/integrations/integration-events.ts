/**
 * What happened, as an outside service is told of it (issue #30): the ledger events the integrations carry
 * (comments.events.ts, pages.events.ts, tickets.events.ts; a page added is also an older release's
 * notification event) mapped to one outward event — its type (WEBHOOK_EVENTS), its project, the ids (a
 * comment's page and version, or its slide on an illustration project) and a link back — and who did it, named as a receiver may see (never an e-mail). The webhooks consumer sends
 * it as a delivery's payload; the Slack consumer writes it as a channel message.
 */
import { parseGuestIdentity, TRACKER_NAMES, type TrackerType, type WebhookEvent } from "@redline/shared";
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { users } from "../../db/schema/index.ts";
import type { LedgerEvent } from "../../lib/ledger.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

interface Actor {
  userId?: string;
  guestIdentity?: string;
  guestName?: string;
  /** A change made through an integration (a tracker's card closed there; a reply written in Slack). */
  integration?: string;
}
interface Place {
  id?: string | null;
  projectId: string;
  pageId: string;
  versionId?: string;
}

interface CommentRef {
  id: string;
  projectId: string;
  /** Null on a slide's comment (an illustration project): `slideId` then. */
  pageId: string | null;
  versionId: string | null;
  slideId?: string | null;
}

/** A page's comment. */
const onAPage = (ref: CommentRef | undefined): ref is CommentRef & { pageId: string; versionId: string } =>
  Boolean(ref?.pageId && ref.versionId);

/** A slide's comment (an illustration project). */
const onASlide = (ref: CommentRef | undefined): ref is CommentRef & { slideId: string } =>
  Boolean(ref?.slideId);

/**
 * A comment's event, on a page or on a slide: a page's names its page and version and links to the page; a
 * slide's names its slide and links to the comment on it (`/project/{id}?id={commentId}`, SPEC §2).
 */
function onComment(
  type: WebhookEvent,
  ref: CommentRef | undefined,
  actor: Actor | undefined,
  appUrl: string,
  more = {},
): OutwardEvent | null {
  if (onAPage(ref)) return onPage(type, ref, actor, appUrl, { commentId: ref.id, ...more });
  if (!onASlide(ref)) return null;
  return {
    type,
    projectId: ref.projectId,
    actor,
    data: {
      projectId: ref.projectId,
      slideId: ref.slideId,
      commentId: ref.id,
      ...more,
      url: slideCommentUrl(appUrl, ref.projectId, ref.id),
    },
  };
}

/** Where a slide's comment opens: the slide editor with the comment open on its slide (SPEC §2 `?id=`). */
export const slideCommentUrl = (appUrl: string, projectId: string, commentId: string) =>
  `${appUrl}/project/${projectId}?id=${encodeURIComponent(commentId)}`;

/**
 * The ledger events a webhook may carry, as their modules record them (comments.events.ts,
 * pages.events.ts, tickets.events.ts; a page added is still its notification's event, notify.ts).
 */
export interface OutwardRecorded extends LedgerEvent {
  actor?: Actor;
  /** comment.created / replied / updated */
  ref?: CommentRef;
  text?: string;
  resolves?: boolean;
  /** page.approval */
  version?: Place;
  approved?: boolean;
  isChange?: boolean;
  /** ticket.created / replied / changed */
  projectId?: string;
  state?: { ticketId: string };
  states?: { ticketId: string }[];
  moved?: { fromListId: string | null; toListId: string };
  /** notify:page.added */
  event?: { on: string; actor?: Actor; version?: Place };
}

export interface OutwardEvent {
  type: WebhookEvent;
  projectId: string;
  data: Record<string, unknown>;
  actor: Actor | undefined;
}

function onPage(
  type: WebhookEvent,
  place: Place,
  actor: Actor | undefined,
  appUrl: string,
  more = {},
): OutwardEvent {
  const versionId = place.versionId ?? place.id ?? null;
  return {
    type,
    projectId: place.projectId,
    actor,
    data: {
      projectId: place.projectId,
      pageId: place.pageId,
      versionId,
      ...more,
      url: `${appUrl}/project/${place.projectId}/${place.pageId}`,
    },
  };
}

function onTicket(
  type: WebhookEvent,
  projectId: string,
  ticketId: string,
  actor: Actor | undefined,
  appUrl: string,
  more = {},
): OutwardEvent {
  return {
    type,
    projectId,
    actor,
    data: { projectId, ticketId, ...more, url: `${appUrl}/project/${projectId}` },
  };
}

export function outwardEventOf(recorded: OutwardRecorded, appUrl: string): OutwardEvent | null {
  const { actor, ref, text, projectId } = recorded;
  switch (recorded.type) {
    case "comment.created":
    case "comment.replied":
      return onComment(recorded.type, ref, actor, appUrl, { ...(text !== undefined && { text }) });
    case "comment.updated":
      if (recorded.resolves !== true) return null;
      return onComment("comment.resolved", ref, actor, appUrl);
    case "page.approval":
      if (!recorded.version || recorded.approved !== true || recorded.isChange !== true) return null;
      return onPage("page.approved", recorded.version, actor, appUrl);
    case "page.added":
      if (!recorded.version) return null;
      return onPage("page.added", recorded.version, actor, appUrl);
    case "notify:page.added":
      // Recorded before pages had their own event (an older release's ledger).
      if (!recorded.event?.version) return null;
      return onPage("page.added", recorded.event.version, recorded.event.actor, appUrl);
    case "ticket.created":
    case "ticket.replied":
      if (!projectId || !recorded.state) return null;
      return onTicket(recorded.type, projectId, recorded.state.ticketId, actor, appUrl, {
        ...(text !== undefined && { text }),
      });
    case "ticket.changed": {
      const ticketId = recorded.states?.[0]?.ticketId;
      if (!projectId || !recorded.moved || !ticketId) return null;
      return onTicket("ticket.moved", projectId, ticketId, actor, appUrl, {
        fromListId: recorded.moved.fromListId,
        toListId: recorded.moved.toListId,
      });
    }
    default:
      return null;
  }
}

/** Who did it, as a receiver may be told: a person's name, or the guest's name (never an e-mail). */
export async function actorOf(
  tx: Tx,
  actor: Actor | undefined,
): Promise<{ name: string; isGuest: boolean } | null> {
  if (!actor) return null;
  if (actor.integration) {
    const name =
      TRACKER_NAMES[actor.integration as TrackerType] ??
      (actor.integration === "slack" ? "Slack" : actor.integration);
    return { name, isGuest: false };
  }
  if (actor.userId) {
    const [user] = await tx.select({ name: users.displayName }).from(users).where(eq(users.id, actor.userId));
    return { name: user?.name ?? "", isGuest: false };
  }
  const name = actor.guestName ?? parseGuestIdentity(actor.guestIdentity)?.name;
  return { name: name || "Anonymous", isGuest: true };
}

/** The ledger events `outwardEventOf` maps (the others it answers null). */
export const OUTWARD_TYPES = new Set([
  "comment.created",
  "comment.replied",
  "comment.updated",
  "page.approval",
  "page.added",
  "notify:page.added",
  "ticket.created",
  "ticket.replied",
  "ticket.changed",
]);
