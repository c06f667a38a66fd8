/**
 * The one shape every task tracker takes (issue #30: Trello, ClickUp, GitHub, Asana; Jira later, one
 * folder each): how one connects (the authorize URL and what the return route hands back), renewing a token
 * that expires, where cards may go, a card's life (create, close/reopen, delete), and the tracker's signed
 * webhook — made for a destination (with its handshake, if any), and each inbound request verified and
 * read as card changes. The product side
 * (trackers.operations.ts, trackers.jobs.ts) knows only this; each adapter speaks to its client in
 * integrations/<service>/.
 */
import type { TrackerContainer, TrackerDestination, TrackerType } from "@redline/shared";

/** What a tracker keeps sealed on its integration row (never shown). */
export interface TrackerSecrets {
  token?: string;
  /** A token that expires (Asana): when (ms since the epoch), and the refresh token that renews it. */
  expiresAt?: number;
  refreshToken?: string;
  /** The inbound webhook made for the destination, and (ClickUp, GitHub, Asana) the secret it signs with. */
  hookId?: string;
  hookSecret?: string;
  /** Until when a webhook's handshake is awaited (Asana: only while POST /webhooks is in flight). */
  handshakeUntil?: number;
  /** The handshake's secret, until the webhook it belongs to exists (then `hookSecret`). */
  pendingHookSecret?: string;
}

/** A token as a tracker grants it; one that expires comes with its end and a refresh token. */
export interface TrackerGrant {
  token: string;
  refreshToken?: string;
  expiresAt?: number;
}

/** A card as the product asks for it: a title and a plain-text description. */
export interface CardContent {
  title: string;
  description: string;
}

/** A card change the tracker told of (resolve/reopen in Redline follows). */
export interface InboundChange {
  externalId: string;
  /** null: the tracker's event says only that it changed (Asana); the operation reads it (`isClosed`). */
  closed: boolean | null;
  /** When the tracker says it happened (a stale one is refused). */
  at: Date;
}

export interface InboundRequest {
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
  /** The callback URL the webhook was made with (Trello signs it). */
  callbackUrl: string;
  /** The secret the callback URL's last segment holds (`KEYED_WEBHOOKS` only). */
  key?: string;
}

/** Trackers whose webhook URL holds a secret (`…/webhook/{integrationId}/{key}`): nothing else proves them. */
export const KEYED_WEBHOOKS: readonly TrackerType[] = ["jira"];

/** The route a tracker's webhook calls. */
export const trackerWebhookRoute = (tracker: TrackerType) =>
  `/api/integrations/${tracker}/webhook/:integrationId${KEYED_WEBHOOKS.includes(tracker) ? "/:key" : ""}`;

/** A call the tracker refused or could not answer; transient ones (not reached, 429, 5xx) are retried. */
export interface TrackerFailure extends Error {
  status: number | null;
  isTransient: boolean;
}

export function isTrackerFailure(error: unknown): error is TrackerFailure {
  return (
    error instanceof Error &&
    "isTransient" in error &&
    typeof (error as TrackerFailure).isTransient === "boolean"
  );
}

export interface Tracker {
  type: TrackerType;
  /** Where the browser goes to connect: `returnUrl` is the return route (`/integration/{type}`). */
  authorizeUrl(input: { returnUrl: string; state: string }): string;
  /** From what the return route received (Trello: a token; ClickUp: a code), a token and its account. */
  connect(input: { token?: string; code?: string }): Promise<TrackerGrant & { account: string }>;
  /** A token that expires: a new grant from the refresh token (a revoked one fails, not transiently). */
  refresh?(refreshToken: string): Promise<TrackerGrant>;
  destinations(token: string): Promise<TrackerContainer[]>;
  createCard(
    token: string,
    destination: TrackerDestination,
    card: CardContent,
  ): Promise<{ id: string; url: string }>;
  setClosed(token: string, externalId: string, closed: boolean): Promise<void>;
  deleteCard(token: string, externalId: string): Promise<void>;
  /** Makes the webhook that tells of the destination's cards; returns its id and signing secret if any. */
  watch(
    token: string,
    destination: TrackerDestination,
    callbackUrl: string,
  ): Promise<{ hookId: string; hookSecret?: string }>;
  unwatch(token: string, hookId: string): Promise<void>;
  /** A webhook that expires unless renewed (Jira's, after 30 days): renewed whenever the integration is used. */
  renewWatch?(token: string, hookId: string): Promise<void>;
  /**
   * A webhook's set-up request (Asana's `X-Hook-Secret`), or null when the request is not one: the headers
   * to answer with, and the secret later deliveries are signed with.
   */
  handshake?(request: InboundRequest): { headers: Record<string, string>; hookSecret: string } | null;
  /** Whether a card is closed now, for changes whose event does not say (`closed: null`). */
  isClosed?(token: string, externalId: string): Promise<boolean>;
  /** The changes a request tells of, or null when it is not the tracker's (a forged signature). */
  verifyInbound(
    request: InboundRequest,
    secrets: TrackerSecrets,
  ): InboundChange[] | null | Promise<InboundChange[] | null>;
}
