/**
 * The authorization matrix: every route the server registers × every kind of caller (lib/principal.ts
 * `PrincipalKind`), with the answer the product's permission model requires. "deny" means 401/403/404 AND no
 * row or file changed. The test fails when a route exists that this table does not cover, so every new route
 * must be added here. It runs as one test file per group of routes (`MATRIX_GROUPS`:
 * authorization.matrix.<group>.test.ts), side by side in the unit project's workers; the first group's file
 * also checks the table against the route registry.
 *
 * How it runs: each row is one test of its session, link-guest and anonymous callers; each other kind of
 * caller is one test per file over every row (`COLUMNS`: the owner's read-write and read API tokens, the
 * browser extension, a page carrying a widget key, a service signing its calls, an outside integration's
 * credential), its answer per route read from the registry's declaration (`accepts`, `writes`). Refused calls
 * change nothing, so a test's refused cells run as one batch on a shared fixture, with one digest of the
 * database and files before and one after (testing/db-digest.ts); an allowed write gets a fresh fixture.
 *
 * Reading guide — actors (made from the kinds of caller: KIND_ACTORS below; every kind has actors, and each
 * route's `accepts` decides the columns' cells):
 *   owner         signed in, verified, owns the fixture project
 *   edit/comment/view  signed in, verified, in the project's users with that access
 *   stranger      signed in, verified, not part of the project
 *   unverified    signed in, e-mail not verified yet
 *   guestComment  no account, has the public link; the link allows comments
 *   guestView     no account, has the public link; the link does not allow comments
 *   nobody        no session, no link
 *   teamOwner/teamManager/teamMember  signed in, verified; the fixture team's owner, a manager, a member
 *   teamCollaborator  signed in, verified; one of the fixture team's collaborators, toggled into the project
 * The fixture project's public link is on, showing suggested edits (canComment off for guestView's cells).
 * The fixture project belongs to the fixture team (SPEC §4 team projects: its owner, managers and members
 * edit, its toggled-in collaborators comment); the project's owner created it as one of the team's
 * members. edit/comment/view are outside the team. The team also holds a pending invitation.
 * The four team actors run on the production driver only (PostgreSQL when available): what they add is
 * the team relation, which the same SQL decides on both drivers.
 */

import { isDeepStrictEqual } from "node:util";
import {
  EXTENSION_ID,
  GUEST_KEY_HEADER,
  normalizeSharing,
  type ProjectSharing,
  TRACKER_TYPES,
  type TrackerType,
  WIDGET_VIDEO_TOKEN_HEADER,
} from "@redline/shared";
import {
  asanaSignature,
  clickupSignature,
  githubSignature,
  paymentsDevIdle,
  SLACK_CHANNELS,
  slackSignature,
  transmissionHeaders,
  trelloSignature,
} from "@redline/stand-ins";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as Yjs from "yjs";
import {
  apiTokens,
  browseLists,
  commentEntries,
  comments,
  conversationParticipants,
  conversations,
  decks,
  inspectChanges,
  notifications,
  pages,
  projectCollaborators,
  projectIntegrations,
  projectMembers,
  projects,
  sessions,
  teamMembers,
  teams,
  ticketEntries,
  tickets,
  users,
  versions,
  webhookDeliveries,
  webhookEndpoints,
  widgetSettings,
} from "../db/schema/index.ts";
import { createSlackClient } from "../integrations/slack/index.ts";
import { newId } from "../lib/ids.ts";
import { mintUnsubscribeToken } from "../lib/mail/unsubscribe-token.ts";
import { acceptedBy, type PrincipalKind, provesItself, SAFE_METHODS } from "../lib/principal.ts";
import type { RouteDoc } from "../lib/routes.ts";
import { secretBox } from "../lib/secret-box.ts";
import { ADMIN_POLICY } from "../modules/admin/admin.policy.ts";
import { createExtensionCredential } from "../modules/auth/api-tokens.ts";
import { SUBSCRIPTION_POLICY } from "../modules/billing/billing.policy.ts";
import { COMMENT_POLICY } from "../modules/comments/comments.policy.ts";
import { CONVERSATION_POLICY } from "../modules/conversations/conversations.policy.ts";
import { hashGuestKey } from "../modules/conversations/conversations.service.ts";
import { INSPECT_POLICY } from "../modules/inspect/inspect.policy.ts";
import { INTEGRATION_POLICY } from "../modules/integrations/integrations.policy.ts";
import { trackerWebhookRoute } from "../modules/integrations/trackers/tracker.ts";
import { signTrackerState } from "../modules/integrations/trackers/trackers.state.ts";
import { MEMBER_POLICY } from "../modules/members/members.policy.ts";
import { NOTIFICATION_POLICY } from "../modules/notifications/notifications.policy.ts";
import { mintLifetimeCode, mintPartnerCode, mintPrivilegeToken } from "../modules/plans/grants.ts";
import { PROJECT_POLICY } from "../modules/project-access/projects.policy.ts";
import { SLIDES_POLICY } from "../modules/slides/slides.policy.ts";
import { TEAM_POLICY } from "../modules/teams/teams.policy.ts";
import { TICKET_POLICY } from "../modules/tickets/tickets.policy.ts";
import { guestUploader } from "../modules/videos/uploads.ts";
import { widgetVideoGrant } from "../modules/widget/widget-video.routes.ts";
import { digest } from "./db-digest.ts";
import { ApiClient, signUpVerified } from "./http-client.ts";
import { paypalSubscription, providerSubscription } from "./payments.ts";
import { startTestApp, type TestApp } from "./test-app.ts";
import { defaultDriver, routeDrivers } from "./test-db.ts";
import { type TrackerFixture, trackerFixture, trackerGrant } from "./trackers.ts";

/** The kinds of caller outside the table's rows, each a column over every row (`COLUMNS` below). */
const TOKEN_COLUMN = "owner with a read-write API token";
const READ_TOKEN_COLUMN = "owner with a read API token";
const EXTENSION_COLUMN = "owner with the browser extension";
const WIDGET_COLUMN = "a page on another site carrying a widget key";
const SIGNED_COLUMN = "another service signing its call";
const INTEGRATION_COLUMN = "an outside service with a credential of its own";
/** The caller with no principal: no cookie, no link, no credential. */
const NOBODY = "nobody";

/**
 * The actors, by the kind of caller they stand for (lib/principal.ts `PrincipalKind`): every kind has its
 * entry (the type says so), and the matrix's columns are made from them — the session and link-guest actors
 * and `nobody` run in every row, every other kind's in a column of its own over every row (`COLUMNS`).
 */
const KIND_ACTORS = {
  session: [
    "owner",
    "edit",
    "comment",
    "view",
    "stranger",
    "unverified",
    "teamOwner",
    "teamManager",
    "teamMember",
    "teamCollaborator",
  ],
  "link-guest": ["guestComment", "guestView"],
  token: [TOKEN_COLUMN, READ_TOKEN_COLUMN],
  extension: [EXTENSION_COLUMN],
  "widget-key": [WIDGET_COLUMN],
  signed: [SIGNED_COLUMN],
  integration: [INTEGRATION_COLUMN],
} as const satisfies Record<PrincipalKind, readonly string[]>;

/** The kinds whose actors run in every row (a cookie, or no credential at all). */
const ROW_KINDS = ["session", "link-guest"] as const satisfies PrincipalKind[];
type Actor = (typeof KIND_ACTORS)[(typeof ROW_KINDS)[number]][number] | typeof NOBODY;
type Verdict = "allow" | "deny";
const ACTORS: readonly Actor[] = [...ROW_KINDS.flatMap((kind) => KIND_ACTORS[kind]), NOBODY];

const TEAM_ACTORS = ["teamOwner", "teamManager", "teamMember", "teamCollaborator"] as const satisfies Actor[];
const Y = "allow" as const;
const N = "deny" as const;

// The presets, one column per actor. Read a row as "who may call a route of this kind".
// biome-ignore format: aligned as a table
const PRESETS = {
  //                  owner  edit  comment  view  stranger  unverified  tOwner  tManager  tMember  tCollab  guestC  guestV  nobody
  PUBLIC:            [Y,     Y,    Y,       Y,    Y,        Y,          Y,      Y,        Y,       Y,       Y,      Y,      Y],
  SIGNED_IN:         [Y,     Y,    Y,       Y,    Y,        Y,          Y,      Y,        Y,       Y,       N,      N,      N],
  VERIFIED:          [Y,     Y,    Y,       Y,    Y,        N,          Y,      Y,        Y,       Y,       N,      N,      N],
  MEMBERS:           [Y,     Y,    Y,       Y,    N,        N,          Y,      Y,        Y,       Y,       N,      N,      N],
  COMMENTERS:        [Y,     Y,    Y,       N,    N,        N,          Y,      Y,        Y,       Y,       N,      N,      N],
  EDITORS:           [Y,     Y,    N,       N,    N,        N,          Y,      Y,        Y,       N,       N,      N,      N],
  OWNER:             [Y,     N,    N,       N,    N,        N,          N,      N,        N,       N,       N,      N,      N],
  // The fixture comment's entries are written by the "comment" member.
  AUTHOR:            [N,     N,    Y,       N,    N,        N,          N,      N,        N,       N,       N,      N,      N],
  AUTHOR_OR_EDITORS: [Y,     Y,    Y,       N,    N,        N,          Y,      Y,        Y,       N,       N,      N,      N],
  // The fixture notification is the "comment" member's: one's own notifications are nobody else's.
  RECIPIENT:         [N,     N,    Y,       N,    N,        N,          N,      N,        N,       N,       N,      N,      N],
  // The fixture API token is the "comment" member's: only its holder revokes it.
  TOKEN_HOLDER:      [N,     N,    Y,       N,    N,        N,          N,      N,        N,       N,       N,      N,      N],
  // The fixture subscription is the "comment" member's: only its payer sees or changes it.
  PAYER:             [N,     N,    Y,       N,    N,        N,          N,      N,        N,       N,       N,      N,      N],
  // Reads through the public link: anyone holding it while it is on.
  LINK:              [Y,     Y,    Y,       Y,    Y,        Y,          Y,      Y,        Y,       Y,       Y,      Y,      Y],
  // Writes through the public link need its canComment (off in guestView's fixture).
  LINK_COMMENT:      [Y,     Y,    Y,       Y,    Y,        Y,          Y,      Y,        Y,       Y,       Y,      N,      Y],
  // The fixture team: everyone in it (the project's owner is one of its members) reads it…
  TEAM_PEOPLE:       [Y,     N,    N,       N,    N,        N,          Y,      Y,        Y,       Y,       N,      N,      N],
  // …its owner and managers change it…
  TEAM_ADMINS:       [N,     N,    N,       N,    N,        N,          Y,      Y,        N,       N,       N,      N,      N],
  // …and anyone in it but its owner leaves.
  TEAM_LEAVERS:      [Y,     N,    N,       N,    N,        N,          N,      Y,        Y,       Y,       N,      N,      N],
  // The browser extension's own routes: no session, link or anonymous caller (its column below).
  EXTENSION_ONLY:    [N,     N,    N,       N,    N,        N,          N,      N,        N,       N,       N,      N,      N],
} satisfies Record<string, Verdict[]>;
const {
  PUBLIC,
  SIGNED_IN,
  VERIFIED,
  MEMBERS,
  COMMENTERS,
  EDITORS,
  OWNER,
  AUTHOR,
  AUTHOR_OR_EDITORS,
  RECIPIENT,
  PAYER,
  TOKEN_HOLDER,
  LINK,
  LINK_COMMENT,
  TEAM_PEOPLE,
  TEAM_ADMINS,
  TEAM_LEAVERS,
  EXTENSION_ONLY,
} = Object.fromEntries(Object.entries(PRESETS).map(([name, row]) => [name, verdicts(...row)])) as Record<
  keyof typeof PRESETS,
  Record<Actor, Verdict>
>;

interface Fixture {
  /** A local page with links, for the similar-pages picker. */
  siteUrl: string;
  projectId: string;
  commentId: string;
  entryId: string;
  replyId: string;
  attachmentSha: string;
  /** The pending invitation's entry id (target of member changes). */
  inviteId: string;
  commentUid: string;
  editUid: string;
  pageId: string;
  versionId: string;
  secondVersionId: string;
  imagePageId: string;
  fileKey: string;
  /** An inspect change (suggested edit) on versionId. */
  changeId: string;
  /** A notification of the "comment" member's. */
  notificationId: string;
  /** A new API token of the "comment" member's (made on demand: a person holds at most 50). */
  apiToken(): Promise<string>;
  /** A new resumable video upload of the "comment" member's in the project (its URL path). */
  videoUpload(): Promise<string>;
  /** A new resumable video upload of the GUEST's through the public link (its URL path). */
  guestVideoUpload(): Promise<string>;
  /** The fixture team, its pending invitation's membership id, and its collaborator ("view"). */
  teamId: string;
  teamInviteId: string;
  teamCollaboratorUid: string;
  /** The fixture team's custom domain, verified. */
  teamDomain: string;
  /** A bug-tracking project of the same people and team: two lists, a ticket in the first (its two entries
   *  the "comment" member's, a stored screenshot and replay), a widget report in triage, the widget's key. */
  board: BoardFixture | null;
  /** Makes the board fixture (once per fixture): only the board's rows need it. */
  loadBoard(): Promise<BoardFixture>;
  /** Makes the conversations fixture (once per fixture): only the messages rows need it. */
  loadConversation(): Promise<ConversationFixture>;
  /** Makes an illustration project of the same people, team and link (once per fixture): the deck's rows. */
  loadDeck(): Promise<string>;
  /** Makes the project's webhook integration (once per fixture; disabled, so it sends nothing): a delivery
   *  in its log and a Zapier subscription. */
  loadWebhook(): Promise<{ deliveryId: string; subscriptionId: string }>;
  /** The project's Slack integration, installed at the embedded Slack, its channel chosen. */
  loadSlack(): Promise<void>;
  /** Slack's signature headers for an Events API body, as the embedded Slack signs them. */
  signSlack(body: string): Record<string, string>;
  /** Connects the project's task tracker with a stand-in token, a card made from `changeId` (once per fixture). */
  loadTracker(tracker: TrackerType): Promise<TrackerFixture>;
  /** A tracker's OAuth state for this cell's actor (the project owner's in a refused cell) and a grant. */
  trackerConnect(tracker: TrackerType): Promise<{ state: string; token?: string; code?: string }>;
  /** A new subscription of the "comment" member's at the embedded provider, made on demand. */
  subscription(state?: "active" | "cancelling" | "pending"): Promise<string>;
  /** A new approved PayPal subscription of the "comment" member's at the embedded PayPal provider. */
  paypalSubscription(): Promise<string>;
  /** A lifetime-deal code, a partner code and a privilege token, minted with the instance's secret. */
  lifetimeCode(): string;
  partnerCode(): string;
  privilegeToken(): string;
  /** Signs a webhook payload as the embedded provider does. */
  signEvent(payload: string): Promise<string>;
  /** PayPal's transmission headers for a webhook body, as the embedded PayPal provider signs it. */
  signPaypalEvent(body: string): Record<string, string>;
  /** A one-click unsubscribe token of the "comment" member's, as their notification mail carries. */
  unsubscribeToken(): string;
  /** Plans on for this cell (test apps run with plans off; checkout needs them). */
  plansOn(): void;
}

interface Call {
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  upload?: { name: string; type: string; bytes: Buffer };
}

/** A conversation among all the fixture project's people and a link guest's one (key GUEST_KEY), each
 *  with a stored attachment (sha "d"×64). */
interface ConversationFixture {
  conversationId: string;
  guestConversationId: string;
}

interface BoardFixture {
  projectId: string;
  listId: string;
  otherListId: string;
  ticketId: string;
  triageId: string;
  entryId: string;
  replyId: string;
  widgetKey: string;
  widgetOrigin: string;
  /** Starts a video upload on the fixture ticket as the "comment" member; its URL path. */
  ticketVideoUpload(): Promise<string>;
  /** The widget report's (`triageId`) recording grant: its uploads path and token, as the intake gave them. */
  widgetVideo: { uploads: string; token: string };
  /** The headers the reporter's page sends with it: the allowed Origin and the token. */
  widgetPage: Record<string, string>;
  /** Starts the widget report's recording upload as its page; its URL path. */
  widgetVideoUpload(): Promise<string>;
}

interface Row {
  route: string;
  who: Record<Actor, Verdict>;
  call(f: Fixture): Call | Promise<Call>;
  /** The call reads `f.board` (loaded before the call). */
  board?: true;
  /** The extension column's answer, where it is not the owner's (the extension's own routes). */
  extension?: Verdict;
  /** The token columns' answer, where it is not the owner's (the MCP endpoint takes tokens only). */
  token?: Verdict;
}

// Made once: a cell's fixture stores the same bytes under its own keys (encoding them per cell cost CPU).
let pngMade: Promise<Buffer> | undefined;
const png = () =>
  (pngMade ??= sharp({ create: { width: 40, height: 30, channels: 3, background: "#e5383b" } })
    .png()
    .toBuffer());
let jpegMade: Promise<Buffer> | undefined;
const jpeg = () => (jpegMade ??= png().then((bytes) => sharp(bytes).jpeg().toBuffer()));
const pngDataUrl = async () => `data:image/png;base64,${(await png()).toString("base64")}`;

/** The tus protocol's version header (video uploads). */
const TUS = { "tus-resumable": "1.0.0" };

const MATRIX: Row[] = [
  // Public: deployment facts and the developer outbox (not registered in production).
  { route: "GET /api/health", who: PUBLIC, call: () => ({ path: "/api/health" }) },
  { route: "GET /api/config", who: PUBLIC, call: () => ({ path: "/api/config" }) },
  { route: "GET /health/live", who: PUBLIC, call: () => ({ path: "/health/live" }) },
  { route: "GET /health/ready", who: PUBLIC, call: () => ({ path: "/health/ready" }) },
  { route: "GET /api/openapi.json", who: PUBLIC, call: () => ({ path: "/api/openapi.json" }) },
  { route: "GET /api/dev/mailbox", who: PUBLIC, call: () => ({ path: "/api/dev/mailbox" }) },
  // Stored avatars and thumbnails: unguessable content-hash keys, readable by anyone who has the URL.
  { route: "GET /files/*", who: PUBLIC, call: (f) => ({ path: `/files/${f.fileKey}` }) },

  // One's own account: any signed-in user, verified or not, acts on their own record only.
  { route: "GET /api/me", who: SIGNED_IN, call: () => ({ path: "/api/me" }) },
  {
    route: "PATCH /api/me",
    who: SIGNED_IN,
    call: () => ({ path: "/api/me", body: { displayName: "Changed" } }),
  },
  {
    route: "POST /api/me/photo",
    who: SIGNED_IN,
    call: async () => ({ path: "/api/me/photo", body: { dataUrl: await pngDataUrl() } }),
  },

  // Projects: listing and creating need a verified e-mail; a project is its members' only.
  { route: "GET /api/projects", who: VERIFIED, call: () => ({ path: "/api/projects" }) },
  {
    route: "POST /api/projects",
    who: VERIFIED,
    call: () => ({ path: "/api/projects", body: { title: "New" } }),
  },
  {
    route: "GET /api/projects/:projectId",
    who: MEMBERS,
    call: (f) => ({ path: `/api/projects/${f.projectId}` }),
  },
  {
    route: "PATCH /api/projects/:projectId",
    who: EDITORS,
    call: (f) => ({ path: `/api/projects/${f.projectId}`, body: { title: "Renamed" } }),
  },
  {
    route: "DELETE /api/projects/:projectId",
    who: OWNER,
    call: (f) => ({ path: `/api/projects/${f.projectId}` }),
  },
  {
    route: "POST /api/projects/:projectId/thumbnail",
    who: EDITORS,
    call: async (f) => ({
      path: `/api/projects/${f.projectId}/thumbnail`,
      body: { dataUrl: await pngDataUrl() },
    }),
  },

  // Pages and versions follow their project.
  {
    route: "POST /api/projects/:projectId/pages",
    who: EDITORS,
    call: (f) => ({ path: `/api/projects/${f.projectId}/pages`, body: { url: "https://example.com/new" } }),
  },
  {
    route: "POST /api/projects/:projectId/uploads",
    who: EDITORS,
    // The extension's region screenshot (issue #31): its credential adds an image page as its person.
    extension: Y,
    call: async (f) => ({
      path: `/api/projects/${f.projectId}/uploads`,
      upload: { name: "a.png", type: "image/png", bytes: await png() },
    }),
  },
  {
    route: "POST /api/pages/:pageId/versions",
    who: EDITORS,
    call: (f) => ({ path: `/api/pages/${f.pageId}/versions`, body: {} }),
  },
  {
    route: "PATCH /api/pages/:pageId",
    who: EDITORS,
    call: (f) => ({ path: `/api/pages/${f.pageId}`, body: { title: "Renamed" } }),
  },
  {
    route: "DELETE /api/pages/:pageId",
    who: EDITORS,
    call: (f) => ({ path: `/api/pages/${f.imagePageId}` }),
  },
  {
    route: "GET /api/versions/:versionId",
    who: MEMBERS,
    call: (f) => ({ path: `/api/versions/${f.versionId}` }),
  },
  {
    route: "GET /api/versions/:versionId/view",
    who: MEMBERS,
    call: (f) => ({ path: `/api/versions/${f.versionId}/view` }),
  },
  {
    route: "PATCH /api/versions/:versionId",
    who: EDITORS,
    call: (f) => ({ path: `/api/versions/${f.versionId}`, body: { title: "V" } }),
  },
  {
    route: "DELETE /api/versions/:versionId",
    who: EDITORS,
    call: (f) => ({ path: `/api/versions/${f.secondVersionId}` }),
  },

  // People, approvals and the public link.
  {
    route: "GET /api/projects/:projectId/members",
    who: MEMBERS,
    call: (f) => ({ path: `/api/projects/${f.projectId}/members` }),
  },
  {
    route: "POST /api/projects/:projectId/members",
    who: EDITORS,
    call: (f) => ({
      path: `/api/projects/${f.projectId}/members`,
      body: { email: `new-${f.projectId}@example.com`, access: "view" },
    }),
  },
  {
    route: "PATCH /api/projects/:projectId/members/:memberId",
    who: EDITORS,
    call: (f) => ({ path: `/api/projects/${f.projectId}/members/${f.inviteId}`, body: { access: "edit" } }),
  },
  {
    route: "DELETE /api/projects/:projectId/members/:memberId",
    who: EDITORS,
    call: (f) => ({ path: `/api/projects/${f.projectId}/members/${f.inviteId}` }),
  },
  {
    route: "POST /api/projects/:projectId/transfer",
    who: OWNER,
    call: (f) => ({ path: `/api/projects/${f.projectId}/transfer`, body: { to: f.editUid } }),
  },
  {
    route: "PUT /api/projects/:projectId/approvers/:userId",
    who: EDITORS,
    call: (f) => ({
      path: `/api/projects/${f.projectId}/approvers/${f.commentUid}`,
      body: { isApprover: true },
    }),
  },
  {
    route: "PUT /api/pages/:pageId/approval",
    who: EDITORS,
    call: (f) => ({ path: `/api/pages/${f.pageId}/approval`, body: { approved: true } }),
  },
  {
    route: "PATCH /api/projects/:projectId/sharing",
    who: EDITORS,
    call: (f) => ({ path: `/api/projects/${f.projectId}/sharing`, body: { showEdits: true } }),
  },
  { route: "GET /api/share/:projectId", who: LINK, call: (f) => ({ path: `/api/share/${f.projectId}` }) },
  {
    route: "GET /api/share/:projectId/versions/:versionId/view",
    who: LINK,
    call: (f) => ({ path: `/api/share/${f.projectId}/versions/${f.secondVersionId}/view` }),
  },
  {
    route: "POST /api/share/:projectId/join",
    who: VERIFIED,
    call: (f) => ({ path: `/api/share/${f.projectId}/join` }),
  },
];

/** Routes outside the table (see below) and the comment rows, appended to keep the table readable. */
const GUEST = { "x-redline-guest": "guest__1__Gail__gail@example.com" };
const comment = { dotPosition: { x: 0.5, y: 0.5 }, deviceWidth: 1280, comment: "Matrix" };
MATRIX.push(
  // Reads another site's links through the SSRF guard: any verified user (no project data involved).
  {
    route: "GET /api/similar-pages",
    who: VERIFIED,
    call: (f) => ({ path: `/api/similar-pages?url=${encodeURIComponent(f.siteUrl)}` }),
  },
  {
    route: "POST /api/projects/:projectId/update-all",
    who: EDITORS,
    call: (f) => ({ path: `/api/projects/${f.projectId}/update-all`, body: {} }),
  },
  {
    route: "GET /api/versions/:versionId/comments",
    who: MEMBERS,
    call: (f) => ({ path: `/api/versions/${f.versionId}/comments` }),
  },
  {
    route: "POST /api/versions/:versionId/comments",
    who: COMMENTERS,
    call: (f) => ({ path: `/api/versions/${f.versionId}/comments`, body: comment }),
  },
  {
    route: "POST /api/comments/:commentId/replies",
    who: COMMENTERS,
    call: (f) => ({ path: `/api/comments/${f.commentId}/replies`, body: { comment: "Re" } }),
  },
  {
    route: "PATCH /api/comments/:commentId",
    who: COMMENTERS,
    call: (f) => ({ path: `/api/comments/${f.commentId}`, body: { isResolved: true } }),
  },
  {
    route: "PATCH /api/comments/:commentId/entries/:entryId",
    who: AUTHOR,
    call: (f) => ({ path: `/api/comments/${f.commentId}/entries/${f.entryId}`, body: { comment: "Edited" } }),
  },
  {
    route: "DELETE /api/comments/:commentId/entries/:entryId",
    who: AUTHOR_OR_EDITORS,
    call: (f) => ({ path: `/api/comments/${f.commentId}/entries/${f.replyId}` }),
  },
  {
    route: "POST /api/versions/:versionId/comments/copy-unresolved",
    who: EDITORS,
    call: (f) => ({ path: `/api/versions/${f.secondVersionId}/comments/copy-unresolved` }),
  },
  {
    route: "POST /api/projects/:projectId/attachments",
    who: COMMENTERS,
    call: (f) => ({
      path: `/api/projects/${f.projectId}/attachments`,
      upload: { name: "a.txt", type: "text/plain", bytes: Buffer.from("hi") },
    }),
  },
  {
    route: "GET /api/projects/:projectId/attachments/:sha",
    who: MEMBERS,
    call: (f) => ({ path: `/api/projects/${f.projectId}/attachments/${f.attachmentSha}` }),
  },
  {
    route: "GET /api/projects/:projectId/videos/limit",
    who: COMMENTERS,
    call: (f) => ({ path: `/api/projects/${f.projectId}/videos/limit` }),
  },
  {
    route: "POST /api/projects/:projectId/videos",
    who: COMMENTERS,
    call: (f) => ({ path: `/api/projects/${f.projectId}/videos`, headers: { ...TUS, "upload-length": "4" } }),
  },
  {
    // An upload is its uploader's (the "comment" member's): nobody else continues or abandons it.
    route: "PATCH /api/projects/:projectId/videos/:upload",
    who: AUTHOR,
    call: async (f) => ({
      path: await f.videoUpload(),
      headers: { ...TUS, "upload-offset": "0", "content-type": "application/offset+octet-stream" },
    }),
  },
  {
    route: "DELETE /api/projects/:projectId/videos/:upload",
    who: AUTHOR,
    call: async (f) => ({ path: await f.videoUpload(), headers: TUS }),
  },
  {
    // Read as the comment is: its members, and anyone holding the public link that shows its page.
    route: "GET /api/comments/:commentId/entries/:entryId/video",
    who: LINK,
    call: (f) => ({ path: `/api/comments/${f.commentId}/entries/${f.replyId}/video` }),
  },
  {
    // Read as the comment is: its members, and anyone holding the public link that shows its page.
    route: "GET /api/comments/:commentId/entries/:entryId/poster",
    who: LINK,
    call: (f) => ({ path: `/api/comments/${f.commentId}/entries/${f.replyId}/poster` }),
  },
  // A guest of a link that allows comments records videos through it, as the identity they send.
  {
    route: "GET /api/share/:projectId/videos/limit",
    who: LINK_COMMENT,
    call: (f) => ({ path: `/api/share/${f.projectId}/videos/limit`, headers: GUEST }),
  },
  {
    route: "POST /api/share/:projectId/videos",
    who: LINK_COMMENT,
    call: (f) => ({
      path: `/api/share/${f.projectId}/videos`,
      headers: { ...TUS, ...GUEST, "upload-length": "4" },
    }),
  },
  {
    route: "PATCH /api/share/:projectId/videos/:upload",
    who: LINK_COMMENT,
    call: async (f) => ({
      path: await f.guestVideoUpload(),
      headers: { ...TUS, ...GUEST, "upload-offset": "0", "content-type": "application/offset+octet-stream" },
    }),
  },
  {
    route: "DELETE /api/share/:projectId/videos/:upload",
    who: LINK_COMMENT,
    call: async (f) => ({ path: await f.guestVideoUpload(), headers: { ...TUS, ...GUEST } }),
  },
  {
    route: "GET /api/share/:projectId/versions/:versionId/comments",
    who: LINK,
    call: (f) => ({ path: `/api/share/${f.projectId}/versions/${f.versionId}/comments` }),
  },
  {
    route: "POST /api/share/:projectId/versions/:versionId/comments",
    who: LINK_COMMENT,
    call: (f) => ({
      path: `/api/share/${f.projectId}/versions/${f.versionId}/comments`,
      body: comment,
      headers: GUEST,
    }),
  },
  {
    route: "POST /api/share/:projectId/comments/:commentId/replies",
    who: LINK_COMMENT,
    call: (f) => ({
      path: `/api/share/${f.projectId}/comments/${f.commentId}/replies`,
      body: { comment: "Re" },
      headers: GUEST,
    }),
  },
);

/** Inspect changes (suggested edits): read like comments, written with edit access only (SPEC §6). */
const changeAnchor = {
  v: 1 as const,
  querySelector: "h1",
  selectors: { css: "h1", xpath: "/html/body/h1", idPath: null },
  fingerprint: { tag: "h1" },
  dot: null,
};
MATRIX.push(
  {
    route: "GET /api/versions/:versionId/changes",
    who: MEMBERS,
    call: (f) => ({ path: `/api/versions/${f.versionId}/changes` }),
  },
  {
    route: "POST /api/versions/:versionId/changes",
    who: EDITORS,
    call: (f) => ({
      path: `/api/versions/${f.versionId}/changes`,
      body: {
        changes: [
          { changeType: "style", anchor: changeAnchor, deviceWidth: 1280, property: "color", value: "blue" },
        ],
      },
    }),
  },
  {
    route: "PATCH /api/changes/:changeId",
    who: EDITORS,
    call: (f) => ({ path: `/api/changes/${f.changeId}`, body: { isResolved: true } }),
  },
  {
    route: "DELETE /api/versions/:versionId/changes",
    who: EDITORS,
    call: (f) => ({ path: `/api/versions/${f.versionId}/changes`, body: { ids: [f.changeId] } }),
  },
  {
    route: "GET /api/versions/:versionId/changes.css",
    who: MEMBERS,
    call: (f) => ({ path: `/api/versions/${f.versionId}/changes.css` }),
  },
  {
    route: "POST /api/versions/:versionId/changes/images",
    who: EDITORS,
    call: async (f) => ({
      path: `/api/versions/${f.versionId}/changes/images`,
      upload: { name: "a.png", type: "image/png", bytes: await png() },
    }),
  },
  // Through the public link only while it shows edits (on in the fixture; off is tested in inspect).
  {
    route: "GET /api/share/:projectId/versions/:versionId/changes",
    who: LINK,
    call: (f) => ({ path: `/api/share/${f.projectId}/versions/${f.versionId}/changes` }),
  },
);

/** One's own notifications: any verified user, on their own rows only (another's is a 404). */
MATRIX.push(
  { route: "GET /api/notifications", who: VERIFIED, call: () => ({ path: "/api/notifications" }) },
  {
    route: "GET /api/notifications/counts",
    who: VERIFIED,
    call: () => ({ path: "/api/notifications/counts" }),
  },
  {
    route: "PATCH /api/notifications/:notificationId",
    who: RECIPIENT,
    call: (f) => ({ path: `/api/notifications/${f.notificationId}`, body: { isSeen: true } }),
  },
  { route: "POST /api/notifications/seen", who: VERIFIED, call: () => ({ path: "/api/notifications/seen" }) },
  {
    route: "POST /api/notifications/notified",
    who: VERIFIED,
    call: () => ({ path: "/api/notifications/notified" }),
  },
);

/** Billing: one's own subscriptions (another's is a 404), checkout, plans outside card payments. */
MATRIX.push(
  { route: "GET /api/billing", who: SIGNED_IN, call: () => ({ path: "/api/billing" }) },
  { route: "GET /api/countries", who: PUBLIC, call: () => ({ path: "/api/countries" }) },
  {
    route: "GET /api/billing/prices",
    who: PUBLIC,
    call: () => ({ path: "/api/billing/prices?currency=EUR" }),
  },
  {
    route: "POST /api/billing/checkout",
    who: VERIFIED,
    call: (f) => {
      f.plansOn();
      return { path: "/api/billing/checkout", body: { planId: "pro-yearly" } };
    },
  },
  {
    route: "POST /api/billing/subscriptions/:subscriptionId/cancel",
    who: PAYER,
    call: async (f) => ({ path: `/api/billing/subscriptions/${await f.subscription()}/cancel` }),
  },
  {
    route: "POST /api/billing/subscriptions/:subscriptionId/undo-cancel",
    who: PAYER,
    call: async (f) => ({
      path: `/api/billing/subscriptions/${await f.subscription("cancelling")}/undo-cancel`,
    }),
  },
  {
    route: "POST /api/billing/subscriptions/:subscriptionId/update",
    who: PAYER,
    call: async (f) => ({
      path: `/api/billing/subscriptions/${await f.subscription()}/update`,
      body: { planId: "standard-monthly" },
    }),
  },
  {
    route: "POST /api/billing/subscriptions/:subscriptionId/cancel-pending-update",
    who: PAYER,
    call: async (f) => ({
      path: `/api/billing/subscriptions/${await f.subscription("pending")}/cancel-pending-update`,
    }),
  },
  {
    route: "POST /api/billing/webhook",
    who: PUBLIC,
    call: async (f) => {
      const event = { id: `evt_matrix_${newId()}`, object: "event", type: "ping", data: { object: {} } };
      const signature = await f.signEvent(JSON.stringify(event));
      return { path: "/api/billing/webhook", body: event, headers: { "stripe-signature": signature } };
    },
  },
  {
    route: "POST /api/billing/paypal/checkout",
    who: VERIFIED,
    call: (f) => {
      f.plansOn();
      // A browse team plan: the "comment" member's PayPal fixtures hold web plans.
      return { path: "/api/billing/paypal/checkout", body: { planId: "browse-team-monthly-x10" } };
    },
  },
  {
    route: "GET /api/billing/paypal/subscriptions/:subscriptionId",
    who: PAYER,
    call: async (f) => ({
      path: `/api/billing/paypal/subscriptions/${await f.paypalSubscription()}?include_transactions=true`,
    }),
  },
  {
    route: "POST /api/billing/paypal/webhook",
    who: PUBLIC,
    call: (f) => {
      const event = { id: `WH-MATRIX-${newId()}`, event_type: "PING", resource: {} };
      return {
        path: "/api/billing/paypal/webhook",
        body: event,
        headers: f.signPaypalEvent(JSON.stringify(event)),
      };
    },
  },
  // Whether a privilege link can still be taken: asked by the sign-up page, before any account exists.
  {
    route: "GET /api/privilege-links/:plan",
    who: PUBLIC,
    call: (f) => ({ path: `/api/privilege-links/team?token=${f.privilegeToken()}` }),
  },
  {
    route: "POST /api/me/privilege",
    who: VERIFIED,
    call: (f) => ({ path: "/api/me/privilege", body: { plan: "team", token: f.privilegeToken() } }),
  },
  {
    route: "POST /api/me/lifetime-deal",
    who: VERIFIED,
    call: (f) => ({ path: "/api/me/lifetime-deal", body: { code: f.lifetimeCode() } }),
  },
  {
    route: "POST /api/me/partner-plan",
    who: VERIFIED,
    call: (f) => ({ path: "/api/me/partner-plan", body: { code: f.partnerCode() } }),
  },
);

// Teams: the fixture team's roles (see the reading guide). Owner and managers change things; every
// team user reads; anyone but the owner leaves.
MATRIX.push(
  { route: "GET /api/teams", who: VERIFIED, call: () => ({ path: "/api/teams?product=web" }) },
  { route: "POST /api/teams", who: VERIFIED, call: () => ({ path: "/api/teams", body: { product: "web" } }) },
  { route: "GET /api/teams/:teamId", who: TEAM_PEOPLE, call: (f) => ({ path: `/api/teams/${f.teamId}` }) },
  {
    route: "PATCH /api/teams/:teamId",
    who: TEAM_ADMINS,
    call: (f) => ({ path: `/api/teams/${f.teamId}`, body: { name: "Renamed" } }),
  },
  {
    route: "POST /api/teams/:teamId/members",
    who: TEAM_ADMINS,
    call: (f) => ({
      path: `/api/teams/${f.teamId}/members`,
      body: { email: `new-${f.teamId}@example.com`, access: "member" },
    }),
  },
  {
    route: "PATCH /api/teams/:teamId/members/:memberId",
    who: TEAM_ADMINS,
    call: (f) => ({ path: `/api/teams/${f.teamId}/members/${f.teamInviteId}`, body: { access: "manager" } }),
  },
  {
    route: "DELETE /api/teams/:teamId/members/:memberId",
    who: TEAM_ADMINS,
    call: (f) => ({ path: `/api/teams/${f.teamId}/members/${f.teamInviteId}` }),
  },
  {
    // The collaborator may not remove themselves here: they leave instead.
    route: "DELETE /api/teams/:teamId/collaborators/:memberId",
    who: TEAM_ADMINS,
    call: (f) => ({ path: `/api/teams/${f.teamId}/collaborators/${f.teamCollaboratorUid}` }),
  },
  {
    // The team's managers, members and collaborators; never its owner.
    route: "POST /api/teams/:teamId/leave",
    who: TEAM_LEAVERS,
    call: (f) => ({ path: `/api/teams/${f.teamId}/leave` }),
  },
);

// A team's branding (theme colours, logo, icon): its owner and managers.
MATRIX.push(
  {
    route: "PATCH /api/teams/:teamId/branding",
    who: TEAM_ADMINS,
    call: (f) => ({
      path: `/api/teams/${f.teamId}/branding`,
      body: { customBranding: true, primaryColor: "#2255aa" },
    }),
  },
  {
    route: "POST /api/teams/:teamId/branding/logo",
    who: TEAM_ADMINS,
    call: async (f) => ({
      path: `/api/teams/${f.teamId}/branding/logo`,
      upload: { name: "logo.png", type: "image/png", bytes: await png() },
    }),
  },
  {
    route: "POST /api/teams/:teamId/branding/icon",
    who: TEAM_ADMINS,
    call: async (f) => ({
      path: `/api/teams/${f.teamId}/branding/icon`,
      upload: { name: "icon.png", type: "image/png", bytes: await png() },
    }),
  },
  {
    route: "DELETE /api/teams/:teamId/branding/logo",
    who: TEAM_ADMINS,
    call: (f) => ({ path: `/api/teams/${f.teamId}/branding/logo` }),
  },
  {
    route: "DELETE /api/teams/:teamId/branding/icon",
    who: TEAM_ADMINS,
    call: (f) => ({ path: `/api/teams/${f.teamId}/branding/icon` }),
  },
);

// A team's custom domain: its owner and managers see, set, check and remove it; anyone may ask whose host
// this is, and the reverse proxy whether a certificate may be issued.
MATRIX.push(
  {
    route: "GET /api/teams/:teamId/domain",
    who: TEAM_ADMINS,
    call: (f) => ({ path: `/api/teams/${f.teamId}/domain` }),
  },
  {
    route: "PUT /api/teams/:teamId/domain",
    who: TEAM_ADMINS,
    call: (f) => ({ path: `/api/teams/${f.teamId}/domain`, body: { domain: `new-${f.teamDomain}` } }),
  },
  {
    route: "POST /api/teams/:teamId/domain/check",
    who: TEAM_ADMINS,
    call: (f) => ({ path: `/api/teams/${f.teamId}/domain/check` }),
  },
  {
    route: "DELETE /api/teams/:teamId/domain",
    who: TEAM_ADMINS,
    call: (f) => ({ path: `/api/teams/${f.teamId}/domain` }),
  },
  { route: "GET /api/host", who: PUBLIC, call: () => ({ path: "/api/host" }) },
  {
    route: "GET /api/domains/ask",
    who: PUBLIC,
    call: (f) => ({ path: `/api/domains/ask?domain=${f.teamDomain}` }),
  },
);

// A team project's collaborators: its readers see them, its editors toggle them (the collaborator is in).
MATRIX.push(
  {
    route: "GET /api/projects/:projectId/collaborators",
    who: MEMBERS,
    call: (f) => ({ path: `/api/projects/${f.projectId}/collaborators` }),
  },
  {
    route: "PUT /api/projects/:projectId/collaborators/:userId",
    who: EDITORS,
    call: (f) => ({
      path: `/api/projects/${f.projectId}/collaborators/${f.teamCollaboratorUid}`,
      body: { enabled: false },
    }),
  },
);

// A project's integrations: its owner and editors, on the owner's plan (plans are off here; the 402 is
// tested in modules/integrations/integrations.routes.test.ts). Zapier's REST hooks follow the same rule.
MATRIX.push(
  {
    route: "GET /api/projects/:projectId/integrations",
    who: EDITORS,
    call: async (f) => {
      await f.loadWebhook();
      return { path: `/api/projects/${f.projectId}/integrations` };
    },
  },
  {
    route: "PUT /api/projects/:projectId/integrations/webhook",
    who: EDITORS,
    call: (f) => ({
      path: `/api/projects/${f.projectId}/integrations/webhook`,
      body: { url: "http://127.0.0.1:9/hook", events: ["page.approved"] },
    }),
  },
  {
    route: "PATCH /api/projects/:projectId/integrations/:type",
    who: EDITORS,
    call: async (f) => {
      await f.loadWebhook();
      return { path: `/api/projects/${f.projectId}/integrations/webhook`, body: { isEnabled: false } };
    },
  },
  {
    route: "DELETE /api/projects/:projectId/integrations/:type",
    who: EDITORS,
    call: async (f) => {
      await f.loadWebhook();
      return { path: `/api/projects/${f.projectId}/integrations/webhook` };
    },
  },
  {
    route: "POST /api/projects/:projectId/integrations/webhook/secret",
    who: EDITORS,
    call: async (f) => {
      await f.loadWebhook();
      return { path: `/api/projects/${f.projectId}/integrations/webhook/secret` };
    },
  },
  {
    route: "GET /api/projects/:projectId/integrations/webhook/deliveries",
    who: EDITORS,
    call: async (f) => {
      await f.loadWebhook();
      return { path: `/api/projects/${f.projectId}/integrations/webhook/deliveries` };
    },
  },
  {
    route: "POST /api/projects/:projectId/integrations/webhook/deliveries/:deliveryId/replay",
    who: EDITORS,
    call: async (f) => {
      const { deliveryId } = await f.loadWebhook();
      return { path: `/api/projects/${f.projectId}/integrations/webhook/deliveries/${deliveryId}/replay` };
    },
  },
  {
    route: "POST /api/projects/:projectId/integrations/webhook/subscriptions",
    who: EDITORS,
    call: (f) => ({
      path: `/api/projects/${f.projectId}/integrations/webhook/subscriptions`,
      body: { target_url: "http://127.0.0.1:9/zap", event: "page.approved" },
    }),
  },
  {
    route: "DELETE /api/projects/:projectId/integrations/webhook/subscriptions/:subscriptionId",
    who: EDITORS,
    call: async (f) => {
      const { subscriptionId } = await f.loadWebhook();
      return { path: `/api/projects/${f.projectId}/integrations/webhook/subscriptions/${subscriptionId}` };
    },
  },
);

// The task trackers (Trello, ClickUp, GitHub, Asana, Jira): the same rule; the cards' links to everyone who sees the project;
// each tracker's webhook proves itself by its signature (anyone may deliver one; a forged one is refused
// in trackers.routes.test.ts). The tracker calls go to its embedded stand-in.
MATRIX.push({
  route: "GET /api/projects/:projectId/integrations/cards",
  who: MEMBERS,
  call: async (f) => {
    await f.loadTracker("trello");
    return { path: `/api/projects/${f.projectId}/integrations/cards` };
  },
});
for (const tracker of TRACKER_TYPES) {
  const at = (f: Fixture) => `/api/projects/${f.projectId}/integrations/${tracker}`;
  MATRIX.push(
    {
      route: `GET /api/projects/:projectId/integrations/${tracker}/authorize`,
      who: EDITORS,
      call: (f) => ({ path: `${at(f)}/authorize` }),
    },
    {
      route: `POST /api/integrations/${tracker}/connect`,
      who: EDITORS,
      call: async (f) => ({
        path: `/api/integrations/${tracker}/connect`,
        body: await f.trackerConnect(tracker),
      }),
    },
    {
      route: `GET /api/projects/:projectId/integrations/${tracker}/destinations`,
      who: EDITORS,
      call: async (f) => {
        await f.loadTracker(tracker);
        return { path: `${at(f)}/destinations` };
      },
    },
    {
      route: `PUT /api/projects/:projectId/integrations/${tracker}`,
      who: EDITORS,
      call: async (f) => {
        const { destination } = await f.loadTracker(tracker);
        return {
          path: at(f),
          body: { containerId: destination.containerId, listId: destination.listId, autoCreate: true },
        };
      },
    },
    {
      route: `PATCH /api/projects/:projectId/integrations/${tracker}`,
      who: EDITORS,
      call: async (f) => {
        await f.loadTracker(tracker);
        return { path: at(f), body: { isEnabled: false } };
      },
    },
    {
      route: `DELETE /api/projects/:projectId/integrations/${tracker}`,
      who: EDITORS,
      call: async (f) => {
        await f.loadTracker(tracker);
        return { path: at(f) };
      },
    },
    {
      route: `POST /api/projects/:projectId/integrations/${tracker}/cards`,
      who: EDITORS,
      call: async (f) => {
        await f.loadTracker(tracker);
        return { path: `${at(f)}/cards`, body: { subject: "comment", id: f.commentId } };
      },
    },
    {
      route: `DELETE /api/projects/:projectId/integrations/${tracker}/cards/:cardId`,
      who: EDITORS,
      call: async (f) => {
        const { cardId } = await f.loadTracker(tracker);
        return { path: `${at(f)}/cards/${cardId}` };
      },
    },
    {
      route: `GET /api/integrations/${tracker}/webhook/:integrationId`,
      who: PUBLIC,
      call: async (f) => ({
        path: `/api/integrations/${tracker}/webhook/${(await f.loadTracker(tracker)).integrationId}`,
      }),
    },
    {
      // Jira's webhook is not signed: its URL holds the integration's secret (`…/:key`).
      route: `POST ${trackerWebhookRoute(tracker)}`,
      who: PUBLIC,
      call: async (f) => {
        const { webhookUrl, hookSecret, webhookHeaders } = await f.loadTracker(tracker);
        const { body, headers } = signedTrackerAction(tracker, hookSecret, webhookUrl);
        return { path: new URL(webhookUrl).pathname, body, headers: { ...headers, ...webhookHeaders } };
      },
    },
  );
}

// GitHub's merge gate (issue #30): its switch is the integrations' rule, as the tracker's other settings are.
MATRIX.push({
  route: "PATCH /api/projects/:projectId/integrations/github/gate",
  who: EDITORS,
  call: async (f) => {
    await f.loadTracker("github");
    return { path: `/api/projects/${f.projectId}/integrations/github/gate`, body: { isEnabled: true } };
  },
});

/** A tracker's webhook telling of a card Redline does not know (changes nothing), signed as it signs. */
function signedTrackerAction(
  tracker: TrackerType,
  secret: string,
  callbackUrl: string,
): { body: unknown; headers: Record<string, string> } {
  if (tracker === "trello") {
    const body = {
      action: {
        id: newId(),
        type: "updateCard",
        date: new Date().toISOString(),
        data: { card: { id: "0".repeat(24), closed: true }, old: { closed: false } },
      },
    };
    return {
      body,
      headers: { "x-trello-webhook": trelloSignature(secret, JSON.stringify(body), callbackUrl) },
    };
  }
  if (tracker === "github") {
    const now = new Date().toISOString();
    const body = {
      action: "closed",
      issue: { number: 999, html_url: "https://github.com/o/r/issues/999", updated_at: now, closed_at: now },
      repository: { full_name: "unknown/unknown" },
    };
    return {
      body,
      headers: {
        "x-github-event": "issues",
        "x-github-delivery": newId(),
        "x-hub-signature-256": githubSignature(secret, JSON.stringify(body)),
      },
    };
  }
  if (tracker === "asana") {
    const body = {
      events: [
        {
          action: "changed",
          created_at: new Date().toISOString(),
          resource: { gid: "1", resource_type: "task" },
          change: { field: "completed", action: "changed" },
        },
      ],
    };
    return { body, headers: { "x-hook-signature": asanaSignature(secret, JSON.stringify(body)) } };
  }
  if (tracker === "jira") {
    // Proven by the secret in the URL and Jira's JWT (the fixture's headers); an issue Redline does not know.
    const body = {
      timestamp: Date.now(),
      webhookEvent: "jira:issue_updated",
      issue: { id: "1", key: "WEB-999" },
      changelog: { items: [{ field: "status", fieldId: "status" }] },
    };
    return { body, headers: {} };
  }
  const body = {
    event: "taskStatusUpdated",
    task_id: "unknown",
    history_items: [
      { field: "status", date: String(Date.now()), after: { status: "complete", type: "closed" } },
    ],
  };
  return { body, headers: { "x-signature": clickupSignature(secret, JSON.stringify(body)) } };
}

// Slack (issue #30): connect, channels, the channel choice and SPEC §7's sync are the integrations' rule;
// the Events API is Slack's, signed with the app's signing secret (forgeries tested in slack.routes.test.ts).
MATRIX.push(
  {
    route: "POST /api/projects/:projectId/integrations/slack/connect",
    who: EDITORS,
    call: (f) => ({ path: `/api/projects/${f.projectId}/integrations/slack/connect` }),
  },
  {
    route: "GET /api/projects/:projectId/integrations/slack/channels",
    who: EDITORS,
    call: async (f) => {
      await f.loadSlack();
      return { path: `/api/projects/${f.projectId}/integrations/slack/channels` };
    },
  },
  {
    route: "PUT /api/projects/:projectId/integrations/slack",
    who: EDITORS,
    call: async (f) => {
      await f.loadSlack();
      return {
        path: `/api/projects/${f.projectId}/integrations/slack`,
        body: { channelId: SLACK_CHANNELS[0].id },
      };
    },
  },
  {
    route: "POST /api/projects/:projectId/slack/sync",
    who: EDITORS,
    call: async (f) => {
      await f.loadSlack();
      return { path: `/api/projects/${f.projectId}/slack/sync`, body: { message: "From the matrix" } };
    },
  },
  {
    route: "POST /api/integrations/slack/events",
    who: PUBLIC,
    call: (f) => {
      const body = JSON.stringify({ type: "url_verification", challenge: "matrix" });
      return { path: "/api/integrations/slack/events", body: JSON.parse(body), headers: f.signSlack(body) };
    },
  },
);

// API tokens: one's own, managed signed in (a token cannot manage tokens: api-tokens.routes.test.ts).
MATRIX.push(
  { route: "GET /api/me/tokens", who: VERIFIED, call: () => ({ path: "/api/me/tokens" }) },
  // Refer & Earn: one's own link and counts; the link itself is anyone's to follow.
  { route: "GET /api/me/referral", who: VERIFIED, call: () => ({ path: "/api/me/referral" }) },
  { route: "GET /r/:code", who: PUBLIC, call: () => ({ path: "/r/abcdefgh" }) },
  {
    route: "POST /api/me/tokens",
    who: VERIFIED,
    call: () => ({ path: "/api/me/tokens", body: { name: "Matrix", scope: "read" } }),
  },
  {
    route: "DELETE /api/me/tokens/:tokenId",
    who: TOKEN_HOLDER,
    call: async (f) => ({ path: `/api/me/tokens/${await f.apiToken()}` }),
  },
);

// The browser extension (ADR 0037): approved from a session; the rest only as the extension, from its
// origin with its credential (the extension column below). The fixture project is a web project the owner edits.
MATRIX.push(
  {
    route: "POST /api/extension/grants",
    who: VERIFIED,
    call: () => ({ path: "/api/extension/grants", body: { challenge: "c".repeat(43) } }),
  },
  // An approval nobody gave: no credential for anyone.
  {
    route: "POST /api/extension/session",
    who: EXTENSION_ONLY,
    call: () => ({ path: "/api/extension/session", body: { verifier: "v".repeat(43) } }),
  },
  {
    route: "DELETE /api/extension/session",
    who: EXTENSION_ONLY,
    extension: Y,
    call: () => ({ path: "/api/extension/session" }),
  },
  {
    route: "GET /api/extension/projects",
    who: EXTENSION_ONLY,
    extension: Y,
    call: () => ({ path: "/api/extension/projects" }),
  },
  {
    route: "GET /api/extension/threads",
    who: EXTENSION_ONLY,
    extension: Y,
    call: () => ({ path: `/api/extension/threads?url=${encodeURIComponent("https://example.com/")}` }),
  },
  {
    route: "POST /api/extension/pages",
    who: EXTENSION_ONLY,
    extension: Y,
    call: (f) => ({
      path: "/api/extension/pages",
      body: { projectId: f.projectId, url: "https://example.com/app", html: "<p>Signed in</p>", width: 1280 },
    }),
  },
);

// One's own e-mail address: asked for with one's password (every fixture person's is the default), then
// the pending change's link sent again, then cancelled — each person their own (a session only).
let emailChangeCount = 0;
MATRIX.push(
  {
    route: "POST /api/me/email-change",
    who: VERIFIED,
    call: () => ({
      path: "/api/me/email-change",
      body: {
        email: `matrix-change-${++emailChangeCount}-${Date.now()}@example.com`,
        password: "correct horse battery",
      },
    }),
  },
  {
    route: "POST /api/me/email-change/resend",
    who: VERIFIED,
    call: () => ({ path: "/api/me/email-change/resend" }),
  },
  { route: "DELETE /api/me/email-change", who: VERIFIED, call: () => ({ path: "/api/me/email-change" }) },
);

// A sign-in hand-off to another host of this instance: one's own session mints it; the code is the authority
// where it is taken (an unknown code signs nobody in and goes on to the project list).
MATRIX.push(
  {
    route: "POST /api/session/handoff",
    who: SIGNED_IN,
    call: (f) => ({ path: "/api/session/handoff", body: { to: f.siteUrl } }),
  },
  {
    route: "GET /api/session/handoff",
    who: PUBLIC,
    call: () => ({ path: "/api/session/handoff?code=unknown" }),
  },
);

// One-click unsubscribe: the signed token in the mail is the authority, whoever holds it (RFC 8058).
MATRIX.push(
  {
    route: "GET /api/mail/unsubscribe",
    who: PUBLIC,
    call: (f) => ({ path: `/api/mail/unsubscribe?token=${f.unsubscribeToken()}` }),
  },
  {
    route: "POST /api/mail/unsubscribe",
    who: PUBLIC,
    call: (f) => ({ path: `/api/mail/unsubscribe?token=${f.unsubscribeToken()}` }),
  },
);

// The bug-tracking board (issue #15): its readers see it and reply, its editors shape it; link guests have no
// board. The widget's script is anyone's; its intake takes a report from an allowed origin with the key.
const board = (f: Fixture) => f.board!;
const BOARD_ROWS: Row[] = [
  {
    route: "GET /api/projects/:projectId/board",
    who: MEMBERS,
    call: (f) => ({ path: `/api/projects/${board(f).projectId}/board` }),
  },
  {
    route: "POST /api/projects/:projectId/lists",
    who: EDITORS,
    call: (f) => ({ path: `/api/projects/${board(f).projectId}/lists`, body: { title: "Done" } }),
  },
  {
    route: "PATCH /api/lists/:listId",
    who: EDITORS,
    call: (f) => ({ path: `/api/lists/${board(f).listId}`, body: { title: "Renamed" } }),
  },
  {
    route: "DELETE /api/lists/:listId",
    who: EDITORS,
    call: (f) => ({ path: `/api/lists/${board(f).otherListId}` }),
  },
  {
    route: "POST /api/projects/:projectId/tickets",
    who: EDITORS,
    call: (f) => ({
      path: `/api/projects/${board(f).projectId}/tickets`,
      body: { listId: board(f).listId, title: "New" },
    }),
  },
  {
    route: "GET /api/tickets/:ticketId",
    who: MEMBERS,
    call: (f) => ({ path: `/api/tickets/${board(f).ticketId}` }),
  },
  {
    route: "PATCH /api/tickets/:ticketId",
    who: EDITORS,
    call: (f) => ({ path: `/api/tickets/${board(f).ticketId}`, body: { dueDate: "2026-12-01" } }),
  },
  {
    route: "POST /api/tickets/:ticketId/move",
    who: EDITORS,
    call: (f) => ({ path: `/api/tickets/${board(f).ticketId}/move`, body: { listId: board(f).otherListId } }),
  },
  {
    route: "POST /api/tickets/:ticketId/triage",
    who: EDITORS,
    call: (f) => ({
      path: `/api/tickets/${board(f).triageId}/triage`,
      body: { action: "accept", listId: board(f).listId },
    }),
  },
  {
    route: "DELETE /api/tickets/:ticketId",
    who: EDITORS,
    call: (f) => ({ path: `/api/tickets/${board(f).ticketId}` }),
  },
  {
    route: "POST /api/tickets/:ticketId/entries",
    who: COMMENTERS,
    call: (f) => ({ path: `/api/tickets/${board(f).ticketId}/entries`, body: { comment: "Matrix" } }),
  },
  {
    route: "PATCH /api/tickets/:ticketId/entries/:entryId",
    who: AUTHOR,
    call: (f) => ({
      path: `/api/tickets/${board(f).ticketId}/entries/${board(f).replyId}`,
      body: { comment: "Edited" },
    }),
  },
  {
    route: "DELETE /api/tickets/:ticketId/entries/:entryId",
    who: AUTHOR_OR_EDITORS,
    call: (f) => ({ path: `/api/tickets/${board(f).ticketId}/entries/${board(f).replyId}` }),
  },
  {
    route: "GET /api/tickets/:ticketId/screenshot",
    who: MEMBERS,
    call: (f) => ({ path: `/api/tickets/${board(f).ticketId}/screenshot` }),
  },
  {
    route: "GET /api/tickets/:ticketId/replay",
    who: MEMBERS,
    call: (f) => ({ path: `/api/tickets/${board(f).ticketId}/replay` }),
  },
  // Recording on a ticket (issue #33): whoever may attach to it; an upload is its uploader's alone.
  {
    route: "GET /api/tickets/:ticketId/videos/limit",
    who: COMMENTERS,
    call: (f) => ({ path: `/api/tickets/${board(f).ticketId}/videos/limit` }),
  },
  {
    route: "POST /api/tickets/:ticketId/videos",
    who: COMMENTERS,
    call: (f) => ({
      path: `/api/tickets/${board(f).ticketId}/videos`,
      headers: { ...TUS, "upload-length": "4" },
    }),
  },
  {
    route: "PATCH /api/tickets/:ticketId/videos/:upload",
    who: AUTHOR,
    call: async (f) => ({
      path: await board(f).ticketVideoUpload(),
      headers: { ...TUS, "upload-offset": "0", "content-type": "application/offset+octet-stream" },
    }),
  },
  {
    route: "DELETE /api/tickets/:ticketId/videos/:upload",
    who: AUTHOR,
    call: async (f) => ({ path: await board(f).ticketVideoUpload(), headers: TUS }),
  },
  {
    route: "GET /api/tickets/:ticketId/entries/:entryId/video",
    who: MEMBERS,
    call: (f) => ({ path: `/api/tickets/${board(f).ticketId}/entries/${board(f).replyId}/video` }),
  },
  {
    route: "GET /api/tickets/:ticketId/entries/:entryId/poster",
    who: MEMBERS,
    call: (f) => ({ path: `/api/tickets/${board(f).ticketId}/entries/${board(f).replyId}/poster` }),
  },
  {
    route: "GET /api/projects/:projectId/widget",
    who: EDITORS,
    call: (f) => ({ path: `/api/projects/${board(f).projectId}/widget` }),
  },
  {
    route: "PUT /api/projects/:projectId/widget",
    who: EDITORS,
    call: (f) => ({
      path: `/api/projects/${board(f).projectId}/widget`,
      body: { allowedOrigins: [board(f).widgetOrigin, "https://other.example"] },
    }),
  },
  { route: "GET /widget/v1/:file", who: PUBLIC, call: () => ({ path: "/widget/v1/redline.js" }) },
  {
    route: "OPTIONS /api/widget/reports",
    who: PUBLIC,
    call: (f) => ({ path: "/api/widget/reports", headers: { origin: board(f).widgetOrigin } }),
  },
  // A widget report's recording (issue #33): the intake's upload token is the authority — whoever holds it,
  // from the project's allowed origin, session or not; a bearer credential is not one (refused at the door).
  {
    route: "OPTIONS /api/widget/tickets/:ticketId/*",
    who: PUBLIC,
    call: (f) => ({ path: board(f).widgetVideo.uploads, headers: { origin: board(f).widgetOrigin } }),
  },
  // Before a report, the recorder asks how long it may record: the widget key from an allowed origin.
  {
    route: "GET /api/widget/video-limit",
    who: PUBLIC,
    call: (f) => ({
      path: `/api/widget/video-limit?key=${board(f).widgetKey}`,
      headers: { origin: board(f).widgetOrigin },
    }),
  },
  {
    route: "GET /api/widget/tickets/:ticketId/videos/limit",
    who: PUBLIC,
    call: (f) => ({ path: `${board(f).widgetVideo.uploads}/limit`, headers: board(f).widgetPage }),
  },
  {
    route: "POST /api/widget/tickets/:ticketId/videos",
    who: PUBLIC,
    call: (f) => ({
      path: board(f).widgetVideo.uploads,
      headers: { ...TUS, ...board(f).widgetPage, "upload-length": "4" },
    }),
  },
  {
    route: "PATCH /api/widget/tickets/:ticketId/videos/:upload",
    who: PUBLIC,
    call: async (f) => ({
      path: await board(f).widgetVideoUpload(),
      headers: {
        ...TUS,
        ...board(f).widgetPage,
        "upload-offset": "0",
        "content-type": "application/offset+octet-stream",
      },
    }),
  },
  {
    route: "DELETE /api/widget/tickets/:ticketId/videos/:upload",
    who: PUBLIC,
    call: async (f) => ({
      path: await board(f).widgetVideoUpload(),
      headers: { ...TUS, ...board(f).widgetPage },
    }),
  },
  {
    route: "POST /api/widget/reports",
    who: PUBLIC,
    call: async (f) => {
      const form = new FormData();
      const report = {
        key: board(f).widgetKey,
        note: "The button does nothing",
        reporter: { name: "Gail", email: "gail@example.com" },
        report: { pageUrl: `${board(f).widgetOrigin}/checkout`, viewport: { width: 1280, height: 800 } },
      };
      form.append("report", JSON.stringify(report));
      form.append("screenshot", new Blob([new Uint8Array(await png())], { type: "image/png" }), "shot.png");
      return { path: "/api/widget/reports", body: form, headers: { origin: board(f).widgetOrigin } };
    },
  },
];
MATRIX.push(...BOARD_ROWS.map((row): Row => ({ ...row, board: true })));

/** The slide every fixture deck holds. */
const FIXTURE_SLIDE = "matrix-slide";

/** A Yjs update adding one slide to an empty deck (valid whatever the deck holds: it depends on nothing). */
function newSlideUpdate(id = newId()): string {
  const doc = new Yjs.Doc();
  const slide = new Yjs.Map<unknown>();
  for (const [key, value] of Object.entries({ id, position: 1, createdAt: 1, notes: "" }))
    slide.set(key, value);
  slide.set("objects", new Yjs.Map());
  doc.getMap("slides").set(id, slide);
  return Buffer.from(Yjs.encodeStateAsUpdate(doc)).toString("base64");
}

// An illustration project's slides (issue #32): members read and say where they are, editors change them.
MATRIX.push(
  {
    route: "GET /api/projects/:projectId/deck",
    who: MEMBERS,
    call: async (f) => ({ path: `/api/projects/${await f.loadDeck()}/deck` }),
  },
  {
    route: "POST /api/projects/:projectId/deck/updates",
    who: EDITORS,
    call: async (f) => ({
      path: `/api/projects/${await f.loadDeck()}/deck/updates`,
      body: { update: newSlideUpdate() },
    }),
  },
  {
    route: "POST /api/projects/:projectId/deck/presence",
    who: MEMBERS,
    call: async (f) => ({
      path: `/api/projects/${await f.loadDeck()}/deck/presence`,
      body: { clientId: 1, slideId: null, selection: [] },
    }),
  },
  // Comments on its slides: the comments' rules (members read; commenters, not viewers, pin).
  {
    route: "GET /api/projects/:projectId/slide-comments",
    who: MEMBERS,
    call: async (f) => ({ path: `/api/projects/${await f.loadDeck()}/slide-comments` }),
  },
  {
    route: "POST /api/projects/:projectId/slides/:slideId/comments",
    who: COMMENTERS,
    call: async (f) => ({
      path: `/api/projects/${await f.loadDeck()}/slides/${FIXTURE_SLIDE}/comments`,
      body: { dotPosition: { x: 0.5, y: 0.5 }, comment: "Matrix" },
    }),
  },
  // Through the public link (a link guest, like a page's): the deck read only, its comments like a page's.
  {
    route: "GET /api/share/:projectId/deck",
    who: LINK,
    call: async (f) => ({ path: `/api/share/${await f.loadDeck()}/deck` }),
  },
  {
    route: "POST /api/share/:projectId/deck/presence",
    who: LINK,
    call: async (f) => ({
      path: `/api/share/${await f.loadDeck()}/deck/presence`,
      body: { clientId: 7, slideId: FIXTURE_SLIDE, selection: [] },
      headers: GUEST,
    }),
  },
  {
    route: "GET /api/share/:projectId/slide-comments",
    who: LINK,
    call: async (f) => ({ path: `/api/share/${await f.loadDeck()}/slide-comments` }),
  },
  {
    route: "POST /api/share/:projectId/slides/:slideId/comments",
    who: LINK_COMMENT,
    call: async (f) => ({
      path: `/api/share/${await f.loadDeck()}/slides/${FIXTURE_SLIDE}/comments`,
      body: { dotPosition: { x: 0.5, y: 0.5 }, comment: "Matrix" },
      headers: GUEST,
    }),
  },
  {
    route: "POST /api/projects/:projectId/slides/images",
    who: EDITORS,
    call: async (f) => ({
      path: `/api/projects/${await f.loadDeck()}/slides/images`,
      upload: { name: "a.png", type: "image/png", bytes: await png() },
    }),
  },
);

// Analytics the browser reports (SPEC §7): anyone, signed in or not; a session only names the user.
MATRIX.push(
  {
    route: "POST /api/analytics/events",
    who: PUBLIC,
    call: () => ({
      path: "/api/analytics/events",
      body: { event: "SwitchView", properties: { view: "board" } },
    }),
  },
  {
    route: "POST /api/user-event",
    who: PUBLIC,
    call: () => ({ path: "/api/user-event", body: { text: "Matrix" } }),
  },
);

// The instance admin (issue #34): operators named in ADMIN_EMAILS only, which no actor here is (the test app
// names none) — every actor, and the owner's token, is refused (404) and nothing changes. What an operator
// may do is tested in modules/admin/admin.routes.test.ts.
const NO_ONE = verdicts(...ACTORS.map(() => N));
MATRIX.push(
  { route: "GET /api/admin/users", who: NO_ONE, call: () => ({ path: "/api/admin/users?q=a" }) },
  { route: "GET /api/admin/teams", who: NO_ONE, call: () => ({ path: "/api/admin/teams" }) },
  { route: "GET /api/admin/usage", who: NO_ONE, call: () => ({ path: "/api/admin/usage?days=7" }) },
  { route: "GET /api/admin/health", who: NO_ONE, call: () => ({ path: "/api/admin/health" }) },
  { route: "GET /api/admin/audit", who: NO_ONE, call: () => ({ path: "/api/admin/audit" }) },
  {
    route: "POST /api/admin/users/:userId/disable",
    who: NO_ONE,
    call: (f) => ({ path: `/api/admin/users/${f.editUid}/disable`, body: {} }),
  },
  {
    route: "POST /api/admin/users/:userId/enable",
    who: NO_ONE,
    call: (f) => ({ path: `/api/admin/users/${f.editUid}/enable`, body: {} }),
  },
  {
    route: "POST /api/admin/users/:userId/grant",
    who: NO_ONE,
    call: (f) => ({
      path: `/api/admin/users/${f.editUid}/grant`,
      body: { kind: "privilege", plan: "team" },
    }),
  },
  {
    route: "POST /api/admin/teams/:teamId/disable",
    who: NO_ONE,
    call: (f) => ({ path: `/api/admin/teams/${f.teamId}/disable`, body: {} }),
  },
  {
    route: "POST /api/admin/teams/:teamId/enable",
    who: NO_ONE,
    call: (f) => ({ path: `/api/admin/teams/${f.teamId}/enable`, body: {} }),
  },
);

// Contact Us and plan requests: anyone signed in writes to the installation's support address.
MATRIX.push(
  {
    route: "POST /api/support/contact",
    who: SIGNED_IN,
    call: () => ({ path: "/api/support/contact", body: { subject: "Matrix", message: "Hello" } }),
  },
  {
    route: "POST /api/support/pro-request",
    who: SIGNED_IN,
    call: () => ({ path: "/api/support/pro-request", body: { company: "Matrix", teamSize: 5 } }),
  },
  {
    route: "POST /api/support/feedback",
    who: SIGNED_IN,
    call: () => ({ path: "/api/support/feedback", body: { message: "Matrix feedback" } }),
  },
);

// /request-review: anyone holding an owner's review link asks that owner (and only them) for a review.
MATRIX.push(
  {
    route: "GET /api/review-requests/target",
    who: PUBLIC,
    call: (f) => ({ path: `/api/review-requests/target?project=${f.projectId}` }),
  },
  {
    route: "POST /api/review-requests",
    who: PUBLIC,
    call: (f) => ({
      path: "/api/review-requests",
      body: { projectId: f.projectId, name: "Rita", email: "rita@example.com", url: "https://example.com/" },
    }),
  },
);

// Messages: one's own conversations (a project's people in theirs; the link's guest, by its key, in its own).
const GUEST_KEY = { [GUEST_KEY_HEADER]: "m".repeat(40) };
const conversationOf = async (f: Fixture) =>
  `/api/conversations/${(await f.loadConversation()).conversationId}`;
const guestConversation = async (f: Fixture) => {
  await f.loadConversation();
  return `/api/share/${f.projectId}/conversation`;
};
const MESSAGE_FILE = { name: "notes.txt", type: "text/plain", bytes: Buffer.from("notes") };
MATRIX.push(
  { route: "GET /api/conversations", who: VERIFIED, call: () => ({ path: "/api/conversations" }) },
  {
    route: "GET /api/conversations/unread",
    who: VERIFIED,
    call: () => ({ path: "/api/conversations/unread" }),
  },
  {
    route: "POST /api/conversations/support",
    who: VERIFIED,
    call: () => ({ path: "/api/conversations/support" }),
  },
  {
    route: "GET /api/conversations/people",
    who: MEMBERS,
    call: (f) => ({ path: `/api/conversations/people?projectId=${f.projectId}` }),
  },
  {
    route: "POST /api/conversations",
    who: MEMBERS,
    call: (f) => ({
      path: "/api/conversations",
      body: { projectId: f.projectId, participantIds: [f.editUid, f.commentUid] },
    }),
  },
  {
    route: "GET /api/conversations/:conversationId",
    who: MEMBERS,
    call: async (f) => ({ path: await conversationOf(f) }),
  },
  {
    route: "GET /api/conversations/:conversationId/messages",
    who: MEMBERS,
    call: async (f) => ({ path: `${await conversationOf(f)}/messages` }),
  },
  {
    route: "POST /api/conversations/:conversationId/messages",
    who: MEMBERS,
    call: async (f) => ({ path: `${await conversationOf(f)}/messages`, body: { message: "Matrix" } }),
  },
  {
    route: "POST /api/conversations/:conversationId/read",
    who: MEMBERS,
    call: async (f) => ({ path: `${await conversationOf(f)}/read` }),
  },
  {
    route: "POST /api/conversations/:conversationId/attachments",
    who: MEMBERS,
    call: async (f) => ({ path: `${await conversationOf(f)}/attachments`, upload: MESSAGE_FILE }),
  },
  {
    route: "GET /api/conversations/:conversationId/attachments/:sha",
    who: MEMBERS,
    call: async (f) => ({ path: `${await conversationOf(f)}/attachments/${"d".repeat(64)}` }),
  },
  // Through the public link: whoever holds the guest's key is that guest (the link is on for every actor).
  {
    route: "GET /api/share/:projectId/conversation",
    who: LINK,
    call: async (f) => ({ path: await guestConversation(f), headers: GUEST_KEY }),
  },
  {
    route: "POST /api/share/:projectId/conversation",
    who: LINK,
    call: async (f) => ({ path: await guestConversation(f), body: {}, headers: { ...GUEST, ...GUEST_KEY } }),
  },
  {
    route: "GET /api/share/:projectId/conversation/messages",
    who: LINK,
    call: async (f) => ({ path: `${await guestConversation(f)}/messages`, headers: GUEST_KEY }),
  },
  {
    route: "POST /api/share/:projectId/conversation/messages",
    who: LINK,
    call: async (f) => ({
      path: `${await guestConversation(f)}/messages`,
      body: { message: "Matrix" },
      headers: GUEST_KEY,
    }),
  },
  {
    route: "POST /api/share/:projectId/conversation/read",
    who: LINK,
    call: async (f) => ({ path: `${await guestConversation(f)}/read`, body: {}, headers: GUEST_KEY }),
  },
  {
    route: "POST /api/share/:projectId/conversation/attachments",
    who: LINK,
    call: async (f) => {
      const form = new FormData();
      form.append(
        "file",
        new Blob([new Uint8Array(MESSAGE_FILE.bytes)], { type: "text/plain" }),
        "notes.txt",
      );
      return { path: `${await guestConversation(f)}/attachments`, body: form, headers: GUEST_KEY };
    },
  },
  {
    route: "GET /api/share/:projectId/conversation/attachments/:sha",
    who: LINK,
    call: async (f) => ({
      path: `${await guestConversation(f)}/attachments/${"d".repeat(64)}`,
      headers: GUEST_KEY,
    }),
  },
);

// The MCP server (mcp/mcp.routes.ts): API tokens only, a read one too (it lists tools and answers; each tool
// calls a route of this table with the token, so that route's policy and the token's scope decide, as
// mcp/mcp.routes.test.ts tests). Every other caller is refused before the protocol is spoken.
MATRIX.push({
  route: "POST /mcp",
  who: NO_ONE,
  token: Y,
  call: () => ({
    path: "/mcp",
    body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    headers: { accept: "application/json, text/event-stream" },
  }),
});

/** Routes outside the table, each with the reason. */
const EXEMPT: Record<string, string> = {
  "GET /api/auth/*":
    "better-auth's own endpoints: sessions, verification links; tested in auth.routes.test.ts",
  "POST /api/auth/*": "better-auth's own endpoints: sign-in/up, reset, delete; tested in auth.routes.test.ts",
  "GET /*": "the built single-page app (static files, history fallback): no data",
  "GET /mcp": "the stateless MCP server answers 405 to everyone; tested in mcp/mcp.routes.test.ts",
  "DELETE /mcp": "the stateless MCP server answers 405 to everyone; tested in mcp/mcp.routes.test.ts",
  "POST /api/widget/tickets/:ticketId/video":
    "naming a widget report's finished recording: the intake's upload token (signed, bound to the ticket, 30 minutes) from the project's allowed origin is the authority — whoever holds it, session or not — as on the upload routes of this table; an allowed call queues the video's processing, whose later writes no cell could tell from its own; every refusal (missing, forged, expired, another ticket's token, another origin, a second video, not a video, past the plan) tested in modules/widget/widget-video.routes.test.ts",
  "POST /api/email-change":
    "following an e-mail change link: the link's secret is the authority (anyone holding it; a session is not asked), so no actor's verdict differs; every refusal (forged, used, expired, address taken) tested in modules/auth/email-change.routes.test.ts",
  "GET /api/integrations/slack/callback":
    "Slack's OAuth v2 return: the signed state (bound to the user who started the install, the project and ten minutes) is the authority, then the integrations policy for that project; forged, foreign and missing states tested in modules/integrations/slack.routes.test.ts",
  "GET /metrics":
    "Prometheus metrics, registered only with METRICS_TOKEN or METRICS_ALLOW_LOOPBACK (not in this app): its own bearer token, or a direct loopback connection; no user data; tested in lib/metrics.test.ts",
  "GET /api/realtime":
    "WebSocket: its project room joins go through the same policy (comments.read), its own user room only; with `?guest`, a link guest's own conversation through the conversations policy (conversations.read), re-checked per event; tested in modules/realtime/realtime.test.ts, notifications.routes.test.ts and conversations.routes.test.ts",
};

/** Whole URL spaces outside the table, each with the reason. */
const EXEMPT_PREFIXES: Record<string, string> = {
  "/dev/dns":
    "the embedded DNS server's page and record API (registered only outside production and without DNS_SERVERS); cross-site writes refused by Origin; tested in modules/teams/team-domain.routes.test.ts and integrations/dns/dns-stand-in.test.ts (packages/stand-ins/src/dns)",
  "/v1/":
    "the embedded payment provider's Stripe API (never registered in production or with Stripe keys): the provider's API key guards it; tested in integrations/stripe/stripe-stand-in.test.ts (packages/stand-ins/src/stripe)",
  "/dev/payments/":
    "the embedded payment provider's test checkout, invoice pages and test controls (development and tests only); tested in integrations/stripe/stripe-stand-in.test.ts (packages/stand-ins/src/stripe)",
  "/paypal-api/":
    "the embedded PayPal provider's REST API (never registered in production or with PayPal credentials): its OAuth client credentials and bearer tokens guard it; tested in integrations/paypal/paypal-stand-in.test.ts (packages/stand-ins/src/paypal)",
  "/dev/posthog":
    "the embedded PostHog stand-in's capture API and event list (registered only outside production with POSTHOG_API_KEY and no POSTHOG_HOST): the project key guards capture; tested in modules/analytics/analytics.consumer.test.ts (packages/stand-ins/src/posthog)",
  "/dev/slack/":
    "the embedded Slack stand-in's install page, Web API and test controls (never registered in production or with SLACK_CLIENT_ID): its client secret, codes and bot tokens guard the API; tested in integrations/slack/slack-stand-in.test.ts (packages/stand-ins/src/slack)",
  "/dev/google/":
    "the embedded Google sign-in stand-in's OAuth endpoints and consent page (never registered in production or with GOOGLE_CLIENT_ID): its client secret, codes and bearer tokens guard it; tested in modules/auth/google.routes.test.ts (packages/stand-ins/src/google)",
  "/dev/trello/":
    "the embedded Trello stand-in's API, authorize page, card pages and fault control (never registered in production or with TRELLO_API_KEY): its API key and member tokens guard the API; tested in modules/integrations/trackers/trackers.routes.test.ts and trackers.contract.test.ts (packages/stand-ins/src/trello)",
  "/dev/clickup/":
    "the embedded ClickUp stand-in's API, OAuth page, task pages and fault control (never registered in production or with CLICKUP_CLIENT_ID): its client secret, codes and tokens guard the API; tested in modules/integrations/trackers/trackers.routes.test.ts and trackers.contract.test.ts (packages/stand-ins/src/clickup)",
  "/dev/github/":
    "the embedded GitHub stand-in's REST API (commit statuses included), OAuth pages, issue and pull request pages, fault control and the pull request and deployment test controls (never registered in production or with GITHUB_CLIENT_ID): its client secret, codes and tokens guard the API; tested in modules/integrations/trackers/github.routes.test.ts, github.gate.routes.test.ts and trackers.contract.test.ts (packages/stand-ins/src/github)",
  "/dev/asana/":
    "the embedded Asana stand-in's API, OAuth page and token endpoint, task pages and test controls (never registered in production or with ASANA_CLIENT_ID): its client secret, codes, refresh and access tokens guard the API; tested in modules/integrations/trackers/asana.routes.test.ts and trackers.contract.test.ts (packages/stand-ins/src/asana)",
  "/dev/jira/":
    "the embedded Jira Cloud stand-in's Atlassian OAuth page and token endpoint, accessible resources, REST API, issue pages and test controls (never registered in production or with JIRA_CLIENT_ID): its client secret, codes, rotating refresh tokens and access tokens guard the API; tested in modules/integrations/trackers/jira.routes.test.ts, trackers.contract.test.ts and trackers.renewal.test.ts (packages/stand-ins/src/jira)",
  "/dev/paypal/":
    "the embedded PayPal provider's approval page and test controls (development and tests only); tested in integrations/paypal/paypal-stand-in.test.ts (packages/stand-ins/src/paypal) and modules/billing/paypal.routes.test.ts",
};

function verdicts(...answers: Verdict[]): Record<Actor, Verdict> {
  return Object.fromEntries(ACTORS.map((actor, i) => [actor, answers[i]!])) as Record<Actor, Verdict>;
}

function methodOf(route: string) {
  return route.split(" ")[0]!;
}

/** What a refused call may answer. */
const REFUSED = [401, 403, 404];

/** Where a bearer header is read as one of our credentials (modules/auth/principal-hook.ts `readsBearer`):
 *  the API and the MCP endpoint, except on routes whose callers sign their calls. */
const readsBearer = (url: string, doc: RouteDoc | undefined) =>
  (url.startsWith("/api/") || url.startsWith("/mcp")) && !acceptedBy(doc).includes("signed");

/** The widget's allowed origin in the board fixture: a customer's site, not the app's. */
const WIDGET_ORIGIN = "https://customer.example";
/** Signatures a service might send, none of them valid: on a route that does not take signed calls they
 *  are nothing; where the route takes them, the row's call sends the real one instead. */
const FORGED_SIGNATURES = {
  "stripe-signature": `t=1,v1=${"0".repeat(64)}`,
  "x-hub-signature-256": `sha256=${"0".repeat(64)}`,
  "x-slack-signature": `v0=${"0".repeat(64)}`,
  "x-slack-request-timestamp": "1",
};
/** An outside service's own secret (a webhook integration's signing secret), sent as a bearer credential. */
const INTEGRATION_SECRET = `whsec_${"A".repeat(32)}`;

interface RouteFacts {
  method: string;
  url: string;
  doc: RouteDoc | undefined;
}

/**
 * The kinds of caller outside the rows, one column each, from `KIND_ACTORS`: what each must get from every
 * route, read from the route's declaration (`accepts`, `writes`). A kind the route does not accept is no one
 * there: refused (401/403/404, nothing changed) where an anonymous caller is, its credential refused at the
 * door where one is read.
 */
const COLUMNS: {
  name: string;
  kind: Exclude<PrincipalKind, (typeof ROW_KINDS)[number]>;
  verdict(row: Row, route: RouteFacts): Verdict;
}[] = [
  {
    // The owner's token: what the owner's session may do, where the route takes tokens.
    name: TOKEN_COLUMN,
    kind: "token",
    verdict: (row, { url, doc }) =>
      !readsBearer(url, doc)
        ? row.who.nobody
        : acceptedBy(doc).includes("token")
          ? (row.token ?? row.who.owner)
          : N,
  },
  {
    // A read token: the same, but only for what changes nothing (a safe method, or a route declared
    // `writes: false`); a write is refused at the door (403).
    name: READ_TOKEN_COLUMN,
    kind: "token",
    verdict: (row, { method, url, doc }) =>
      !readsBearer(url, doc)
        ? row.who.nobody
        : acceptedBy(doc).includes("token") && (SAFE_METHODS.has(method) || doc?.writes === false)
          ? (row.token ?? row.who.owner)
          : N,
  },
  {
    // The extension, from its origin with a credential handed to it from the owner's session (ADR 0037):
    // what the owner may do on the routes that accept it; everywhere else its credential is refused.
    name: EXTENSION_COLUMN,
    kind: "extension",
    verdict: (row, { url, doc }) =>
      !readsBearer(url, doc)
        ? row.who.nobody
        : acceptedBy(doc).includes("extension")
          ? (row.extension ?? row.who.owner)
          : N,
  },
  {
    // A page on a customer's site: where the route takes a widget key the row's call carries it; elsewhere
    // it is an anonymous caller from another site, whose writes to the API the same-origin check refuses.
    name: WIDGET_COLUMN,
    kind: "widget-key",
    verdict: (row, { method, url, doc }) =>
      acceptedBy(doc).includes("widget-key") || row.who.nobody === N
        ? row.who.nobody
        : !SAFE_METHODS.has(method) && url.startsWith("/api/") && !provesItself(doc)
          ? N
          : Y,
  },
  {
    // Another service: where the route takes signed calls the row's call is signed; elsewhere a signature
    // header is nothing, and the service is an anonymous caller.
    name: SIGNED_COLUMN,
    kind: "signed",
    verdict: (row) => row.who.nobody,
  },
  {
    // No route accepts an integration's own credential yet (issue #30): as a bearer it is refused at the
    // door where one is read; elsewhere the service is an anonymous caller. A route that accepts the kind
    // must give these cells their real answers first.
    name: INTEGRATION_COLUMN,
    kind: "integration",
    verdict: (row, { url, doc }) => {
      if (acceptedBy(doc).includes("integration"))
        throw new Error(`${row.route} accepts an integration: give the matrix its real answer`);
      return readsBearer(url, doc) ? N : row.who.nobody;
    },
  },
];

/**
 * The matrix runs as several files, one per group of routes, so the unit project's workers run them side by
 * side (each file its own app and fixture); the first also checks the table against the registry.
 */
export const MATRIX_GROUPS = ["accounts", "projects", "integrations", "boards"] as const;
export type MatrixGroup = (typeof MATRIX_GROUPS)[number];
function groupOf(row: Row): MatrixGroup {
  const [, url] = row.route.split(" ") as [string, string];
  if (row.board || /deck|slide|widget|conversation/.test(url)) return "boards";
  if (/integrations|\/slack\//.test(url)) return "integrations";
  if (/^\/api\/(projects|pages|versions|comments|changes|share|similar-pages)\b/.test(url)) return "projects";
  return "accounts";
}

/** The matrix's cells for one group of routes (`MATRIX_GROUPS`), in a test file of their own. */
export function authorizationMatrix(group: MatrixGroup) {
  const checksCoverage = group === MATRIX_GROUPS[0];
  describe.each(routeDrivers())(`authorization matrix: ${group} (%s)`, (driver) => {
    let t: TestApp;
    let clients: Record<Actor, ApiClient>;
    let ownerId: string;

    let uids: Record<"edit" | "comment" | "view" | (typeof TEAM_ACTORS)[number], string>;
    const actorsHere =
      driver === defaultDriver()
        ? ACTORS
        : ACTORS.filter((a) => !(TEAM_ACTORS as readonly Actor[]).includes(a));

    /** A fresh project per cell: owner, three members, a pending invitation, two pages, public link on. */
    // The payer's own call may change its subscription: a fresh one. A refused call changes nothing (the
    // cell asserts it), so every other actor is refused on one shared subscription per kind.
    type SubscriptionKind = "active" | "cancelling" | "pending" | "paypal";
    const sharedSubscriptions = new Map<SubscriptionKind, Promise<string>>();
    const shared = (kind: SubscriptionKind) => {
      let made = sharedSubscriptions.get(kind);
      if (!made) {
        made =
          kind === "paypal"
            ? paypalSubscription(t, uids.comment)
            : providerSubscription(t, uids.comment, kind);
        sharedSubscriptions.set(kind, made);
      }
      return made;
    };

    /**
     * Refused calls change nothing — every refused cell asserts it — and neither do reads, so those cells
     * share one fixture per link setting (guestView's link has comments off) instead of building their own;
     * allowed writes get a fresh one, since they change it. Only the closures that depend on the actor are
     * the cell's own.
     */
    const sharedFixtures = new Map<boolean, Promise<Fixture>>();
    async function deniedFixture(actor: Actor): Promise<Fixture> {
      const canComment = actor !== "guestView";
      let made = sharedFixtures.get(canComment);
      if (!made) {
        made = fixture(canComment ? "stranger" : "guestView");
        sharedFixtures.set(canComment, made);
      }
      const denied = await made;
      return {
        ...denied,
        trackerConnect: (tracker) => trackerConnect(tracker, denied.projectId, "owner"),
        subscription: (state = "active") =>
          actor === "comment" ? providerSubscription(t, uids.comment, state) : shared(state),
        paypalSubscription: () =>
          actor === "comment" ? paypalSubscription(t, uids.comment) : shared("paypal"),
      };
    }

    async function fixture(actor: Actor): Promise<Fixture> {
      const { db } = t.ctx.database;
      const projectId = newId();
      const [pageId, imagePageId, versionId, secondVersionId, imageVersionId, inviteId] = [
        1, 2, 3, 4, 5, 6,
      ].map(() => newId()) as [string, string, string, string, string, string];
      const sharing = { ...normalizeSharing(true), canComment: actor !== "guestView", showEdits: true };
      const [teamId, teamInviteId] = [newId(), newId()];
      const teamDomain = `fixture-${Buffer.from(teamId).toString("hex").slice(0, 24)}.example.test`;
      await db.insert(teams).values({
        id: teamId,
        product: "web",
        name: "Fixture team",
        ownerId: uids.teamOwner,
        domain: teamDomain,
        domainStatus: "verified",
        domainToken: "fixture",
        // Not due for the custom-domain re-check (every 10 minutes of an app's life) while the matrix runs:
        // it would find no DNS for the fixture's made-up domain and unverify it under the later cells.
        domainCheckedAt: new Date(Date.now() + 24 * 60 * 60 * 1000),
      });
      // One round trip after another costs more than the rows: what does not depend on another row goes
      // at once (the pool has connections to spare).
      const [commentId, entryId, replyId] = [newId(), newId(), newId()];
      const changeId = newId();
      const notificationId = newId();
      const attachmentSha = "a".repeat(64);
      const fileKey = `avatars/${ownerId}/${newId()}.jpg`;
      const people = async () => {
        await db
          .insert(projects)
          .values({ id: projectId, title: "Fixture", type: "web", ownerId, sharing, teamId });
        await Promise.all([
          db.insert(projectCollaborators).values({ projectId, userId: uids.teamCollaborator }),
          db.insert(projectMembers).values([
            ...(["edit", "comment", "view"] as const).map((access) => ({
              id: newId(),
              projectId,
              userId: uids[access],
              access,
            })),
            { id: inviteId, projectId, email: `invited-${projectId}@example.com`, access: "view" as const },
          ]),
          pagesAndComments(),
        ]);
      };
      const pagesAndComments = async () => {
        await db.insert(pages).values([
          { id: pageId, projectId, url: "https://example.com/fixture", title: "Fixture page" },
          { id: imagePageId, projectId, url: "image", title: "image" },
        ]);
        const base = { projectId, kind: "snapshot" as const, status: "ready" as const, createdBy: ownerId };
        const source = { sourceUrl: "https://example.com/fixture" };
        await db.insert(versions).values([
          { ...base, ...source, id: versionId, pageId, number: 1, title: "Version 1" },
          { ...base, ...source, id: secondVersionId, pageId, number: 2, title: "Version 2" },
          { ...base, id: imageVersionId, pageId: imagePageId, number: 1, title: "Version 1", kind: "image" },
        ]);
        await Promise.all([
          db.insert(comments).values({
            id: commentId,
            projectId,
            pageId,
            versionId,
            target: { kind: "element", anchor: null, point: { x: 0.5, y: 0.5 } },
            deviceSize: "default",
            deviceWidth: 1280,
          }),
          db.insert(inspectChanges).values({
            id: changeId,
            projectId,
            pageId,
            versionId,
            changeType: "style",
            querySelector: "h1",
            anchor: changeAnchor,
            property: "color",
            value: "red",
            deviceSize: "default",
            userId: uids.edit,
          }),
        ]);
        await Promise.all([
          db.insert(commentEntries).values([
            {
              id: entryId,
              commentId,
              userId: uids.comment,
              body: "First",
              createdAt: new Date(Date.now() - 1000),
            },
            // The reply carries a processed video (issue #33): its video and poster are stored below.
            {
              id: replyId,
              commentId,
              userId: uids.comment,
              body: "Reply",
              videoStatus: "ready",
              videoKey: `videos/${projectId}/${replyId}.webm`,
              videoPosterKey: `videos/${projectId}/${replyId}.jpg`,
              videoBytes: 5,
              videoDuration: 1,
            },
          ]),
          db.insert(notifications).values({
            id: notificationId,
            userId: uids.comment,
            type: "web-comment",
            projectId,
            pageId,
            versionId,
            commentId,
            actorId: ownerId,
            context: { projectTitle: "Fixture", pageTitle: "Fixture page" },
          }),
        ]);
      };
      await Promise.all([
        db.insert(teamMembers).values([
          { id: newId(), teamId, userId: ownerId, access: "member" as const },
          { id: newId(), teamId, userId: uids.teamManager, access: "manager" as const },
          { id: newId(), teamId, userId: uids.teamMember, access: "member" as const },
          { id: newId(), teamId, userId: uids.teamCollaborator, access: "collaborator" as const },
          { id: teamInviteId, teamId, email: `invited-${teamId}@example.com`, access: "member" as const },
        ]),
        people(),
        t.ctx.storage.put(`videos/${projectId}/${replyId}.webm`, Buffer.from("video")),
        jpeg().then((bytes) => t.ctx.storage.put(`videos/${projectId}/${replyId}.jpg`, bytes)),
        t.ctx.storage.put(`attachments/${projectId}/${attachmentSha}`, Buffer.from("attachment")),
        jpeg().then((bytes) => t.ctx.storage.put(fileKey, bytes)),
      ]);
      const apiToken = async () => {
        const id = newId();
        await db.insert(apiTokens).values({
          id,
          userId: uids.comment,
          name: "Fixture",
          scope: "read",
          tokenHash: newId(),
          prefix: "rl_fixt",
        });
        return id;
      };
      const videoUpload = async () => {
        const created = await clients.comment.request(
          "POST",
          `/api/projects/${projectId}/videos`,
          undefined,
          {
            ...TUS,
            "upload-length": "4",
          },
        );
        return created.headers.get("location")!;
      };
      const guestVideoUpload = async () => {
        const created = await new ApiClient(t.url).request(
          "POST",
          `/api/share/${projectId}/videos`,
          undefined,
          {
            ...TUS,
            ...GUEST,
            "upload-length": "4",
          },
        );
        // A link without comments starts none: a path of the same shape, refused before it is looked up.
        return (
          created.headers.get("location") ??
          `/api/share/${projectId}/videos/${projectId}.${guestUploader(GUEST["x-redline-guest"])}.${"0".repeat(32)}`
        );
      };
      let board: Promise<BoardFixture> | undefined;
      const loadBoard = () => {
        board ??= boardFixture(sharing, teamId);
        return board;
      };
      let deck: Promise<string> | undefined;
      const loadDeck = () => {
        deck ??= deckFixture(sharing, teamId);
        return deck;
      };
      let conversation: Promise<ConversationFixture> | undefined;
      const loadConversation = () => {
        conversation ??= conversationFixture(projectId);
        return conversation;
      };
      let webhook: Promise<{ deliveryId: string; subscriptionId: string }> | undefined;
      const loadWebhook = () => {
        webhook ??= webhookFixture(projectId);
        return webhook;
      };
      const trackers = new Map<TrackerType, Promise<TrackerFixture>>();
      const loadTracker = (tracker: TrackerType) => {
        let made = trackers.get(tracker);
        if (!made) {
          made = trackerFixture(t, { projectId, changeId, tracker });
          trackers.set(tracker, made);
        }
        return made;
      };
      let slack: Promise<void> | undefined;
      const loadSlack = () => {
        slack ??= slackFixture(projectId);
        return slack;
      };
      return {
        siteUrl: `${t.url}/api/health`,
        projectId,
        commentId,
        entryId,
        replyId,
        attachmentSha,
        inviteId,
        commentUid: uids.comment,
        editUid: uids.edit,
        pageId,
        versionId,
        secondVersionId,
        imagePageId,
        fileKey,
        changeId,
        notificationId,
        apiToken,
        videoUpload,
        guestVideoUpload,
        loadSlack,
        signSlack: (body: string) => {
          const timestamp = String(Math.floor(Date.now() / 1000));
          return {
            "x-slack-request-timestamp": timestamp,
            "x-slack-signature": slackSignature(t.ctx.config.slack!.signingSecret, timestamp, body),
          };
        },
        loadWebhook,
        loadTracker,
        trackerConnect: (tracker) => trackerConnect(tracker, projectId, actor),
        teamId,
        teamInviteId,
        teamCollaboratorUid: uids.teamCollaborator,
        teamDomain,
        board: null,
        loadBoard,
        loadConversation,
        loadDeck,
        subscription: (state = "active") =>
          actor === "comment" ? providerSubscription(t, uids.comment, state) : shared(state),
        paypalSubscription: () =>
          actor === "comment" ? paypalSubscription(t, uids.comment) : shared("paypal"),
        lifetimeCode: () => mintLifetimeCode(t.ctx.config.authSecret, 1),
        partnerCode: () => mintPartnerCode(t.ctx.config.authSecret, "A"),
        privilegeToken: () => mintPrivilegeToken(t.ctx.config.authSecret, "team"),
        signEvent: (payload) =>
          Stripe.webhooks.generateTestHeaderStringAsync({
            payload,
            secret: t.ctx.config.payments.webhookSecret,
          }),
        signPaypalEvent: (body) =>
          transmissionHeaders({
            secret: t.ctx.config.paypal.signingSecret,
            webhookId: t.ctx.config.paypal.webhookId,
            certUrl: `${t.url}/paypal-api/cert`,
            body,
          }),
        unsubscribeToken: () =>
          encodeURIComponent(mintUnsubscribeToken(t.ctx.config.authSecret, uids.comment, "comments")),
        plansOn: () => {
          t.ctx.config.plansEnabled = true;
        },
      };
    }
    async function slackFixture(projectId: string) {
      const client = createSlackClient(t.ctx.config)!;
      const authorize = new URL(client.authorizeUrl("matrix"));
      const approved = await fetch(authorize.origin + authorize.pathname, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          ...Object.fromEntries(authorize.searchParams),
          decision: "allow",
        }).toString(),
        redirect: "manual",
      });
      const code = new URL(approved.headers.get("location")!).searchParams.get("code")!;
      const installed = await client.exchangeCode(code);
      await t.ctx.database.db.insert(projectIntegrations).values({
        id: newId(),
        projectId,
        type: "slack",
        config: { teamId: installed.teamId, teamName: installed.teamName, channelId: SLACK_CHANNELS[0].id },
        secrets: secretBox(t.ctx.config.authSecret).seal({ botToken: installed.botToken }),
      });
    }

    /** The project's webhook integration, disabled: a panel endpoint, a Zapier subscription, a failed delivery. */
    /** Signed for the actor (their uid, the owner's for one without a project role), with a fresh grant. */
    async function trackerConnect(tracker: TrackerType, projectId: string, actor: Actor) {
      const userId = actor === "owner" ? ownerId : ((uids as Record<string, string>)[actor] ?? ownerId);
      const state = signTrackerState(t.ctx.config.authSecret, { projectId, userId, tracker });
      return { state, ...(await trackerGrant(t, tracker)) };
    }

    async function webhookFixture(projectId: string) {
      const { db } = t.ctx.database;
      const [integrationId, panelId, subscriptionId, deliveryId] = [newId(), newId(), newId(), newId()];
      const secrets = secretBox(t.ctx.config.authSecret).seal({ signing: `whsec_${"A".repeat(32)}` });
      await db
        .insert(projectIntegrations)
        .values({ id: integrationId, projectId, type: "webhook", secrets, isEnabled: false });
      const endpoint = {
        integrationId,
        projectId,
        url: "http://127.0.0.1:9/hook",
        events: ["page.approved" as const],
      };
      await db.insert(webhookEndpoints).values([
        { ...endpoint, id: panelId, source: "panel" as const },
        { ...endpoint, id: subscriptionId, source: "zapier" as const },
      ]);
      await db.insert(webhookDeliveries).values({
        id: deliveryId,
        endpointId: panelId,
        projectId,
        eventId: 1,
        event: "page.approved",
        payload: { type: "page.approved", data: {} },
        status: "failed",
        attempts: 10,
      });
      return { deliveryId, subscriptionId };
    }

    /** The messages of the fixture project: its people's conversation and a link guest's. */
    async function conversationFixture(projectId: string): Promise<ConversationFixture> {
      const { db } = t.ctx.database;
      const [conversationId, guestConversationId] = [newId(), newId()];
      await db.insert(conversations).values([
        { id: conversationId, kind: "project" as const, projectId },
        {
          id: guestConversationId,
          kind: "project" as const,
          projectId,
          guestKeyHash: hashGuestKey(GUEST_KEY[GUEST_KEY_HEADER]),
        },
      ]);
      const people = [ownerId, ...Object.values(uids)];
      await db
        .insert(conversationParticipants)
        .values([
          ...people.map((userId) => ({ id: newId(), conversationId, userId, displayName: "Person" })),
          { id: newId(), conversationId: guestConversationId, displayName: "Gail", isGuest: true },
          { id: newId(), conversationId: guestConversationId, userId: ownerId, displayName: "Owner" },
        ]);
      for (const id of [conversationId, guestConversationId])
        await t.ctx.storage.put(`conversations/${id}/${"d".repeat(64)}`, Buffer.from("attachment"));
      return { conversationId, guestConversationId };
    }

    /** Another project of the fixture's people, team and link settings (a board, a deck). */
    async function siblingProject(
      projectId: string,
      title: string,
      type: "browse" | "illustration",
      sharing: ProjectSharing,
      teamId: string,
    ) {
      const { db } = t.ctx.database;
      await db.insert(projects).values({ id: projectId, title, type, ownerId, sharing, teamId });
      await db.insert(projectCollaborators).values({ projectId, userId: uids.teamCollaborator });
      await db.insert(projectMembers).values(
        (["edit", "comment", "view"] as const).map((access) => ({
          id: newId(),
          projectId,
          userId: uids[access],
          access,
        })),
      );
      return projectId;
    }

    /** An illustration project of the fixture's people, team and link (issue #32), its deck one slide. */
    async function deckFixture(sharing: ProjectSharing, teamId: string) {
      const projectId = await siblingProject(newId(), "Fixture deck", "illustration", sharing, teamId);
      await t.ctx.database.db.insert(decks).values({ projectId, snapshot: newSlideUpdate(FIXTURE_SLIDE) });
      return projectId;
    }

    /** The fixture's bug-tracking project: the web project's people, team and link settings. */
    async function boardFixture(sharing: ProjectSharing, teamId: string) {
      const { db } = t.ctx.database;
      const [projectId, listId, otherListId, ticketId, triageId, entryId, replyId] = [
        1, 2, 3, 4, 5, 6, 7,
      ].map(() => newId()) as [string, string, string, string, string, string, string];
      await siblingProject(projectId, "Fixture board", "browse", sharing, teamId);
      await db.insert(browseLists).values([
        { id: listId, projectId, title: "To do", sortKey: "a0", createdBy: ownerId },
        { id: otherListId, projectId, title: "Doing", sortKey: "a1", createdBy: ownerId },
      ]);
      const screenshotKey = `tickets/${projectId}/${"b".repeat(64)}.png`;
      const replayKey = `tickets/${projectId}/${"c".repeat(64)}.json`;
      await t.ctx.storage.put(screenshotKey, await png());
      await t.ctx.storage.put(replayKey, Buffer.from("[]"));
      await db.insert(tickets).values([
        {
          id: ticketId,
          projectId,
          number: 1,
          listId,
          sortKey: "a0",
          intake: "accepted" as const,
          title: "Broken button",
          reporterId: uids.comment,
          screenshotKey,
          screenshotBytes: 100,
          replayKey,
          replayBytes: 2,
        },
        {
          id: triageId,
          projectId,
          number: 2,
          listId: null,
          sortKey: "a0",
          intake: "triage" as const,
          title: "From the widget",
          reporterName: "Gail",
          reporterEmail: "gail@example.com",
        },
      ]);
      await db.insert(ticketEntries).values([
        {
          id: entryId,
          ticketId,
          userId: uids.comment,
          body: "It breaks",
          createdAt: new Date(Date.now() - 1000),
        },
        // The reply carries a processed video (issue #33): its video and poster are stored below.
        {
          id: replyId,
          ticketId,
          userId: uids.comment,
          body: "Still",
          videoStatus: "ready",
          videoKey: `videos/${projectId}/${replyId}.webm`,
          videoPosterKey: `videos/${projectId}/${replyId}.jpg`,
          videoBytes: 5,
          videoDuration: 1,
        },
        { id: newId(), ticketId: triageId, guestName: "Gail", body: "Reported" },
      ]);
      await t.ctx.storage.put(`videos/${projectId}/${replyId}.webm`, Buffer.from("video"));
      await t.ctx.storage.put(`videos/${projectId}/${replyId}.jpg`, await jpeg());
      const ticketVideoUpload = async () => {
        const created = await clients.comment.request("POST", `/api/tickets/${ticketId}/videos`, undefined, {
          ...TUS,
          "upload-length": "4",
        });
        return created.headers.get("location")!;
      };
      const widgetKey = `wk${Buffer.from(projectId).toString("hex").slice(0, 30)}`;
      const widgetOrigin = "https://customer.example";
      await db.insert(widgetSettings).values({ projectId, key: widgetKey, allowedOrigins: [widgetOrigin] });
      const widgetVideo = widgetVideoGrant(t.ctx.config, triageId);
      const widgetPage = { origin: widgetOrigin, [WIDGET_VIDEO_TOKEN_HEADER]: widgetVideo.token };
      const widgetVideoUpload = async () => {
        const created = await new ApiClient(t.url).request("POST", widgetVideo.uploads, undefined, {
          ...TUS,
          ...widgetPage,
          "upload-length": "4",
        });
        return created.headers.get("location")!;
      };
      return {
        widgetVideo,
        widgetPage,
        widgetVideoUpload,
        projectId,
        listId,
        otherListId,
        ticketId,
        triageId,
        entryId,
        replyId,
        widgetKey,
        widgetOrigin,
        ticketVideoUpload,
      };
    }

    beforeAll(async () => {
      t = await startTestApp({ driver });
      let n = 0;
      const email = (name: string) =>
        `${name.toLowerCase()}-matrix-${Date.now().toString(36)}-${++n}@example.com`;
      const unverified = new ApiClient(t.url);
      await unverified.post("/api/auth/sign-up/email", {
        email: email("unverified"),
        password: "long enough pw",
        name: "U",
      });
      const [owner, edit, comment, view, stranger, teamOwner, teamManager, teamMember, teamCollaborator] =
        await Promise.all(
          ["owner", "edit", "comment", "view", "stranger", ...TEAM_ACTORS].map((name) =>
            signUpVerified(t.url, t.inbox!, email(name)),
          ),
        );
      const uidOf = async (client: ApiClient) => (await client.get("/api/me")).body.data.uid as string;
      clients = {
        owner: owner!,
        edit: edit!,
        comment: comment!,
        view: view!,
        stranger: stranger!,
        unverified,
        guestComment: new ApiClient(t.url),
        guestView: new ApiClient(t.url),
        nobody: new ApiClient(t.url),
        teamOwner: teamOwner!,
        teamManager: teamManager!,
        teamMember: teamMember!,
        teamCollaborator: teamCollaborator!,
      };
      ownerId = await uidOf(owner!);
      uids = {
        edit: await uidOf(edit!),
        comment: await uidOf(comment!),
        view: await uidOf(view!),
        teamOwner: await uidOf(teamOwner!),
        teamManager: await uidOf(teamManager!),
        teamMember: await uidOf(teamMember!),
        teamCollaborator: await uidOf(teamCollaborator!),
      };
    });
    afterAll(() => t.close());
    afterEach(() => {
      t.ctx.config.plansEnabled = false;
    });

    if (checksCoverage)
      it("covers every route of the registry", () => {
        const registered = t.registry.map(({ method, url }) => `${method} ${url}`);
        const covered = new Set([...MATRIX.map((row) => row.route), ...Object.keys(EXEMPT)]);
        const exemptSpace = (route: string) =>
          Object.keys(EXEMPT_PREFIXES).some((prefix) => route.split(" ")[1]!.startsWith(prefix));
        const uncovered = registered.filter((route) => !covered.has(route) && !exemptSpace(route));
        expect(uncovered, "routes missing from the authorization matrix").toEqual([]);
        const stale = MATRIX.map((row) => row.route).filter((route) => !registered.includes(route));
        expect(stale, "matrix rows for routes that do not exist").toEqual([]);
        // Every row runs in exactly one of the matrix's files.
        const groups = MATRIX_GROUPS.flatMap((name) => MATRIX.filter((row) => groupOf(row) === name));
        expect(groups.length).toBe(MATRIX.length);
      });

    if (checksCoverage)
      it("has actors for every kind of caller, and a column for every kind outside the rows", () => {
        const kinds = Object.keys(KIND_ACTORS) as PrincipalKind[];
        const actorsOf: Record<PrincipalKind, readonly string[]> = KIND_ACTORS;
        const missing = kinds.filter((kind) => actorsOf[kind].length === 0);
        expect(missing, "principal kinds with no actor in the matrix").toEqual([]);
        // Every preset has a verdict for each actor the kinds give, in their order.
        for (const [name, row] of Object.entries(PRESETS)) expect(row.length, name).toBe(ACTORS.length);
        // Each kind's actors run in every row, or in a column of their own over every row.
        const columns = new Set(COLUMNS.map((column) => column.name));
        for (const kind of kinds)
          for (const actor of KIND_ACTORS[kind])
            expect(ACTORS.includes(actor as Actor) || columns.has(actor), actor).toBe(true);
      });

    if (checksCoverage)
      it("finds every declared policy action in a policy, and public routes open to anyone", () => {
        const known = new Set<string>([
          ...Object.keys(ADMIN_POLICY),
          ...Object.keys(PROJECT_POLICY),
          ...Object.keys(COMMENT_POLICY),
          ...Object.keys(CONVERSATION_POLICY),
          ...Object.keys(INSPECT_POLICY),
          ...Object.keys(SLIDES_POLICY),
          ...Object.keys(INTEGRATION_POLICY),
          ...Object.keys(MEMBER_POLICY),
          ...Object.keys(NOTIFICATION_POLICY),
          ...Object.keys(SUBSCRIPTION_POLICY),
          ...Object.keys(TEAM_POLICY),
          ...Object.keys(TICKET_POLICY),
          "public",
          "self",
        ]);
        const declared = t.registry.filter((route) => route.doc);
        expect(
          declared.filter((route) => !known.has(route.doc!.action)).map((r) => `${r.method} ${r.url}`),
        ).toEqual([]);
        const publicRoutes = declared.filter((route) => route.doc!.action === "public");
        for (const { method, url, doc } of publicRoutes) {
          const row = MATRIX.find((candidate) => candidate.route === `${method} ${url}`);
          // A public route lets a visitor without a session through (the link's own settings aside); the
          // extension's are its alone (its column).
          const extensionOnly = acceptedBy(doc).every((kind) => kind === "extension");
          if (row && !url.startsWith("/api/share/") && !extensionOnly)
            expect(row.who.nobody, `${method} ${url}`).toBe("allow");
        }
      });

    const rows = MATRIX.filter((row) => groupOf(row) === group);
    const loadOwner = async () => {
      // Their counters' revision moves with any write to their projects (pages, members…): not theirs.
      const [found] = await t.ctx.database.db.select().from(users).where(eq(users.id, ownerId));
      const { countersRevision: _, ...owner } = found!;
      return owner;
    };
    const noHeaders = async (call: Call) => call.headers;
    const send = (client: ApiClient, row: Row, call: Call, headers?: Record<string, string>) =>
      call.upload
        ? client.upload(call.path, call.upload, headers ?? call.headers)
        : client.request(methodOf(row.route), call.path, call.body, headers ?? call.headers);
    const shown = (response: { status: number; body: unknown }) =>
      `${response.status} ${JSON.stringify(response.body)?.slice(0, 200)}`;

    /**
     * One allowed cell: a fresh fixture for a write (it changes it), the shared one for a read; the answer is
     * not a refusal. Returns what was wrong, if anything.
     */
    async function allowedCell(
      row: Row,
      actor: Actor,
      client: ApiClient,
      headersOf: (call: Call) => Promise<Record<string, string> | undefined>,
    ): Promise<string | null> {
      // A read changes nothing, and a call that does not read the fixture (an account's own route) cannot
      // change it: those share it; any other allowed write gets a fresh one.
      const shares = SAFE_METHODS.has(methodOf(row.route)) || row.call.length === 0;
      const f = shares ? await deniedFixture(actor) : await fixture(actor);
      if (row.board) f.board = await f.loadBoard();
      const call = await row.call(f);
      const headers = await headersOf(call);
      // An earlier cell's webhooks (the embedded payment providers deliver after answering) land first.
      await paymentsDevIdle(t.app);
      const response = await send(client, row, call, headers);
      t.ctx.config.plansEnabled = false;
      return response.status < 400 ? null : shown(response);
    }

    /**
     * Refused cells change nothing, each of them, so they run as one batch on the shared fixture: every call
     * prepared first, one digest before and one after, each answer a refusal. Returns what was wrong.
     */
    interface DeniedCell {
      label: string;
      row: Row;
      client: ApiClient;
      fixture: Actor;
      headersOf(call: Call): Promise<Record<string, string> | undefined>;
    }
    async function deniedCells(cells: DeniedCell[]): Promise<string[]> {
      if (cells.length === 0) return [];
      const prepared = [];
      for (const cell of cells) {
        const f = await deniedFixture(cell.fixture);
        if (cell.row.board) f.board = await f.loadBoard();
        const call = await cell.row.call(f);
        // A credential a caller sends is made here, before the digest.
        prepared.push({ ...cell, call, headers: await cell.headersOf(call) });
      }
      t.ctx.config.plansEnabled = false;
      await paymentsDevIdle(t.app);
      const [before, ownerBefore] = await Promise.all([digest(t.ctx), loadOwner()]);
      const wrong: string[] = [];
      for (const { label, row, client, call, headers } of prepared) {
        const response = await send(client, row, call, headers);
        if (!REFUSED.includes(response.status)) wrong.push(`${label}: ${shown(response)}`);
      }
      if (!isDeepStrictEqual(await digest(t.ctx), before))
        wrong.push("a refused call changed the database or the files");
      if (!isDeepStrictEqual(await loadOwner(), ownerBefore))
        wrong.push("a refused call changed the owner's record");
      return wrong;
    }

    // Each row: its session, link-guest and anonymous callers (the table's columns) get the row's answers.
    for (const row of rows) {
      it(`${row.route} — every session, link-guest and anonymous caller`, async () => {
        const denied = actorsHere.filter((actor) => row.who[actor] === "deny");
        const wrong = await deniedCells(
          denied.map((actor) => ({
            label: actor,
            row,
            client: clients[actor],
            fixture: actor,
            headersOf: noHeaders,
          })),
        );
        for (const actor of actorsHere.filter((actor) => row.who[actor] === "allow")) {
          const ownerBefore = actor === "owner" ? null : await loadOwner();
          const failed = await allowedCell(row, actor, clients[actor], noHeaders);
          if (failed) wrong.push(`${actor} (allowed): ${failed}`);
          // Whatever another actor may do, the project owner's own record stays as it was.
          if (ownerBefore && !isDeepStrictEqual(await loadOwner(), ownerBefore))
            wrong.push(`${actor} changed the owner's record`);
        }
        expect(wrong, row.route).toEqual([]);
      }, 120_000);
    }

    // The kinds of caller outside the rows, each a column over every row of this file: what each sends, and
    // the answer each must get (lib/principal.ts; modules/auth/principal-hook.ts decides who they are).
    let ownerTokens: Promise<Record<"read" | "read-write", string>> | undefined;
    const tokens = () =>
      (ownerTokens ??= (async () => {
        const mint = async (scope: "read" | "read-write") =>
          (await clients.owner.post("/api/me/tokens", { name: `Matrix ${scope}`, scope })).body.data
            .secret as string;
        return { read: await mint("read"), "read-write": await mint("read-write") };
      })());
    // The extension's credential is handed to it from the owner's session: a fresh one per call, since its own
    // routes include signing out (which revokes it).
    const ownerExtensionCredential = async () => {
      const { db } = t.ctx.database;
      const [session] = await db
        .select({ id: sessions.id })
        .from(sessions)
        .where(eq(sessions.userId, ownerId));
      return createExtensionCredential(db, ownerId, session!.id);
    };
    for (const column of COLUMNS) {
      const header = async (call: Call): Promise<Record<string, string>> => {
        switch (column.kind) {
          case "token":
            return {
              authorization: `Bearer ${(await tokens())[column.name === READ_TOKEN_COLUMN ? "read" : "read-write"]}`,
              // A call that proves itself in its own Authorization header (Jira's webhook JWT) keeps it.
              ...call.headers,
            };
          case "extension":
            return {
              authorization: `Bearer ${await ownerExtensionCredential()}`,
              ...call.headers,
              origin: `chrome-extension://${EXTENSION_ID}`,
            };
          case "widget-key":
            // The page is on the widget's allowed origin: another site than the app's.
            return { ...call.headers, origin: WIDGET_ORIGIN };
          case "signed":
            return { ...FORGED_SIGNATURES, ...call.headers };
          case "integration":
            return { authorization: `Bearer ${INTEGRATION_SECRET}`, ...call.headers };
          default:
            throw new Error(`no column for ${column.kind}`);
        }
      };
      it(`every route of this file — ${column.name}`, async () => {
        const cells = rows.map((row) => {
          const [method, url] = row.route.split(" ") as [string, string];
          const doc = t.registry.find((route) => route.method === method && route.url === url)?.doc;
          return { row, verdict: column.verdict(row, { method, url, doc }) };
        });
        const wrong = await deniedCells(
          cells
            .filter(({ verdict }) => verdict === "deny")
            .map(({ row }) => ({
              label: row.route,
              row,
              client: new ApiClient(t.url),
              fixture: "owner",
              headersOf: header,
            })),
        );
        for (const { row } of cells.filter(({ verdict }) => verdict === "allow")) {
          const failed = await allowedCell(row, "owner", new ApiClient(t.url), header);
          if (failed) wrong.push(`${row.route} (allowed): ${failed}`);
        }
        expect(wrong, column.name).toEqual([]);
      }, 600_000);
    }
  });
}
