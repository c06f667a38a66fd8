import { z } from "zod";
import {
  DEFAULT_PAGE_LIMIT,
  DEMO_PROJECT_MAX_PAGES,
  INT4_MAX,
  INT4_MIN,
  type Limits,
  PRODUCTS,
  type Product,
  UNLIMITED,
} from "./limits.ts";

/** Project types (SPEC §3). */
export const PROJECT_TYPES = ["web", "webapp", "image", "illustration", "demo", "browse", "mobile"] as const;
export type ProjectType = (typeof PROJECT_TYPES)[number];

export const DEFAULT_PROJECT_TITLE = "Untitled project";
/** New browse and webapp projects expire after 2 days (SPEC §9) unless the owner's project limit is -1. */
export const EXPIRING_PROJECT_TYPES: readonly ProjectType[] = ["browse", "webapp"];
export const PROJECT_EXPIRY_MS = 2 * 24 * 60 * 60 * 1000;

export function productOf(type: ProjectType): Product {
  return type === "browse" || type === "mobile" ? "browse" : "web";
}

/** The project types of a product (its projects count against that product's plan). */
export function projectTypesOf(product: Product): ProjectType[] {
  return PROJECT_TYPES.filter((type) => productOf(type) === product);
}

/**
 * The number of pages a project may hold: the demo project's fixed cap, else its owner's limit for the
 * project's product (default 5; -1 unlimited). The one place it is decided — the server sends it with
 * every project (`pageLimit`, `pagesLeft`) and enforces it when a page is added.
 */
export function pageLimitFor(type: ProjectType, ownerLimits: Limits | null | undefined): number {
  if (type === "demo") return DEMO_PROJECT_MAX_PAGES;
  return ownerLimits?.[productOf(type)]?.pages ?? DEFAULT_PAGE_LIMIT;
}

/** Pages that may still be added; null when unlimited. */
export function pagesLeft(pageLimit: number, pageCount: number): number | null {
  return pageLimit === UNLIMITED ? null : Math.max(0, pageLimit - pageCount);
}

/** Which viewer `/project/{id}` opens (SPEC §2). */
export function viewerOf(type: ProjectType): "review" | "board" | "slides" {
  if (type === "browse" || type === "mobile") return "board";
  if (type === "illustration") return "slides";
  return "review";
}

export function projectExpiresAt(type: ProjectType, createdAt: Date, ownerProjectLimit: number): Date | null {
  if (!EXPIRING_PROJECT_TYPES.includes(type) || ownerProjectLimit === UNLIMITED) return null;
  return new Date(createdAt.getTime() + PROJECT_EXPIRY_MS);
}

/**
 * SPEC §4: an expiring project (browse, webapp) past its time is read-only — viewed, not added to —
 * unless its owner's project limit has since become unlimited (an upgrade revives it).
 */
export function isProjectExpired(
  expiresAt: Date | null,
  ownerProjectLimit: number,
  now: Date = new Date(),
): boolean {
  return expiresAt !== null && expiresAt.getTime() <= now.getTime() && ownerProjectLimit !== UNLIMITED;
}

/** 'Expired' when past, 'Expires in {n}m' under 60 minutes, else 'Expires in {n}h' (SPEC §4). */
export function expiryLabel(expiresAt: Date, now: Date = new Date()): string {
  const ms = expiresAt.getTime() - now.getTime();
  if (ms <= 0) return "Expired";
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 60) return `Expires in ${minutes}m`;
  return `Expires in ${Math.floor(minutes / 60)}h`;
}

export type Access = "owner" | "edit" | "comment" | "view";

/** 'Owner', else '{Access} access' (SPEC §4). */
export function accessLabel(access: Access): string {
  if (access === "owner") return "Owner";
  return `${access.charAt(0).toUpperCase()}${access.slice(1)} access`;
}

/** 'Free Plan', becoming 'Limit reached' when the page count reaches the plan's page limit. */
export function freePlanTag(pageCount: number, pageLimit: number = DEFAULT_PAGE_LIMIT): string | null {
  if (pageLimit === UNLIMITED) return null;
  return pageCount >= pageLimit ? "Limit reached" : "Free Plan";
}

/** Page-like only with no query string, no trailing '/' and no dot in the last segment (SPEC §5). */
export function isPageLikeUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.search !== "" || url.endsWith("?")) return false;
  if (url.endsWith("/")) return false;
  const lastSegment = parsed.pathname.split("/").pop() ?? "";
  return !lastSegment.includes(".");
}

export const PROJECT_SORTS = {
  modifiedAt: "Last updated",
  createdAt: "By date added",
  title: "By name",
  sortOrder: "By sort order",
} as const;
export type ProjectSort = keyof typeof PROJECT_SORTS;

/** The four lists of SPEC §2: /projects, /projects/web, /projects/illustration, /projects/archived. */
export const PROJECT_LISTS = ["all", "web", "illustration", "archived"] as const;
export type ProjectList = (typeof PROJECT_LISTS)[number];

export const projectListQuerySchema = z.object({
  list: z.enum(PROJECT_LISTS).default("all"),
  sort: z.enum(Object.keys(PROJECT_SORTS) as [ProjectSort, ...ProjectSort[]]).default("modifiedAt"),
  q: z.string().trim().max(200).optional(),
  /** The active team (SPEC §2 switcher): its projects are listed beside the reader's own. */
  teamId: z.string().min(1).max(64).optional(),
  /** The product the tab shows (SPEC §1): only its projects are listed. Unset: every product's. */
  product: z.enum(PRODUCTS).optional(),
});
export type ProjectListQuery = z.infer<typeof projectListQuerySchema>;

export const createProjectSchema = z
  .object({
    title: z.string().trim().max(200).optional(),
    type: z.enum(PROJECT_TYPES).default("web"),
    /** A team of the project's product the creator is a member of (SPEC §4: its members edit). */
    teamId: z.string().min(1).max(64).optional(),
  })
  .strict();

export const updateProjectSchema = z
  .object({
    title: z.string().trim().max(200),
    isArchived: z.boolean(),
    /** SPEC §3: the browser extension is not offered this project (its editors turn it off). */
    isPluginDisabled: z.boolean(),
    sortOrder: z.number().int().min(INT4_MIN).max(INT4_MAX),
    /** Move the project into one of the owner's teams, or out of its team (null). Owner only. */
    teamId: z.string().min(1).max(64).nullable(),
  })
  .partial()
  .strict();

const httpUrl = z
  .url({ protocol: /^https?$/, message: "Enter a web address starting with http:// or https://" })
  .max(2048);

export const addPageSchema = z
  .object({
    url: httpUrl,
    isScreenshot: z.boolean().default(false),
    title: z.string().trim().max(200).optional(),
  })
  .strict();

export const updatePageSchema = z
  .object({
    title: z.string().trim().min(1).max(200),
    sortOrder: z.number().int().min(INT4_MIN).max(INT4_MAX),
    isArchived: z.boolean(),
  })
  .partial()
  .strict();

/** Not in SPEC §8 (which has no text for archiving a page); worded like 'Page deleted.'. */
export const PAGE_ARCHIVE_MESSAGES = {
  archived: "Page archived.",
  unarchived: "Page unarchived.",
} as const;

export const updateVersionSchema = z.object({ title: z.string().trim().min(1).max(200) }).strict();

export type VersionKind = "snapshot" | "screenshot" | "image" | "pdf";
export type VersionStatus = "queued" | "capturing" | "ready" | "failed";

export interface Version {
  id: string;
  pageId: string;
  number: number;
  title: string;
  kind: VersionKind;
  status: VersionStatus;
  stage: string | null;
  failureReason: string | null;
  createdAt: string;
  createdBy: string | null;
  modifiedAt: string;
  viewport: { width: number; height: number } | null;
  numberOfComments: number;
  numberOfSuggestions: number;
  /**
   * A capture taken when the page was still busy at the end of its settle budget, and with what
   * (see CaptureBusyReason); null when it was quiet, or the version is not a capture.
   */
  partialCapture: CaptureBusyReason[] | null;
}

/**
 * What kept a page busy when its capture's budget ran out: its load event had not fired, requests were
 * still in flight, timers kept firing (polling), or each rendered frame started new loads.
 */
export type CaptureBusyReason = "load" | "network" | "timers" | "rendering";

const BUSY_TEXT: Record<CaptureBusyReason, string> = {
  load: "it had not finished loading",
  network: "requests were still open",
  timers: "its scripts kept updating it",
  rendering: "it kept loading new content",
};

/** The viewer's note on a partial capture: what it shows and why. */
export function partialCaptureText(reasons: readonly CaptureBusyReason[]): string {
  const parts = reasons.map((reason) => BUSY_TEXT[reason]);
  const why =
    parts.length <= 1
      ? (parts[0] ?? "it was still busy")
      : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  return `Captured while the page was still busy (${why}): this is what it showed at that moment.`;
}

export interface Page {
  id: string;
  projectId: string;
  url: string;
  title: string;
  isPDF: boolean;
  isArchived: boolean;
  isApproved: { uid: string; date: string } | false;
  isDemo: boolean;
  screenshotSource: string | null;
  sortOrder: number;
  thumbnail: string | null;
  createdAt: string;
  modifiedAt: string;
  numberOfVersions: number;
  versions: Version[];
}

export interface ProjectAbilities {
  read: boolean;
  update: boolean;
  archive: boolean;
  delete: boolean;
  addPages: boolean;
  updatePages: boolean;
  deletePages: boolean;
  manageMembers: boolean;
  transfer: boolean;
  /** Move the project into one of the owner's teams or out of its team (the owner). */
  moveToTeam: boolean;
  manageApprovers: boolean;
  /** Toggle page approval: editors, and the project's chosen approvers. */
  approvePages: boolean;
  comment: boolean;
  /** Attach files to comments (members who may comment; guests write text only). */
  attachFiles: boolean;
  /** Inspect mode: save, hide, resolve and delete suggested edits (edit access). */
  suggestEdits: boolean;
}

export interface ProjectSummary {
  id: string;
  title: string;
  type: ProjectType;
  owner: string;
  access: Access;
  isArchived: boolean;
  /** SPEC §3: the browser extension is not offered this project. */
  isPluginDisabled: boolean;
  createdAt: string;
  modifiedAt: string;
  /** When it expires (SPEC §4); null when it never will (or its owner's projects became unlimited). */
  expiresAt: string | null;
  /** Past its expiry: read-only — its abilities allow reading, archiving and deleting only. */
  isExpired: boolean;
  thumbnail: string | null;
  sortOrder: number;
  pageCount: number;
  /** The project's page limit (see pageLimitFor; -1 unlimited). */
  pageLimit: number;
  /** Pages that may still be added; null when unlimited. */
  pagesLeft: number | null;
  /** The team the project belongs to (SPEC §4: its members edit), or null. */
  team: { id: string; name: string } | null;
  abilities: ProjectAbilities;
}

export interface ProjectDetail extends ProjectSummary {
  pages: Page[];
  /** The public link's settings (always present; `public: false` when the link is off). */
  sharing: ProjectSharing;
  approvers: string[];
}

/**
 * One of the project's team's collaborators, and whether they are toggled into this project (SPEC §4:
 * collaborators comment on the team projects they are added to).
 */
export const projectCollaboratorAnswerSchema = z.strictObject({
  uid: z.string(),
  displayName: z.string(),
  email: z.string(),
  photoURL: z.string().nullable(),
  enabled: z.boolean(),
});
export type ProjectCollaborator = z.infer<typeof projectCollaboratorAnswerSchema>;

/** PUT /api/projects/{id}/collaborators/{userId}. */
export const projectCollaboratorSchema = z.object({ enabled: z.boolean() }).strict();

/** POST /api/projects/{id}/pages answer (SPEC §7 add-page). */
export interface AddPageResponse {
  projectId: string;
  pageId: string;
  versionId: string;
  /** The new page as the project lists it (GET /api/projects/{id}), queued for its capture. */
  page?: Page;
}

/** GET /api/versions/{id}/view: where the viewer loads the version from (the content origin). */
/** A version still waiting for its capture or being captured. */
export function isCapturing(version: Pick<Version, "status"> | undefined): boolean {
  return version?.status === "queued" || version?.status === "capturing";
}

export interface VersionView {
  version: Version;
  page: Page;
  /** Snapshot document, image or PDF on the content origin; signed, short-lived. */
  contentUrl: string | null;
  /** Full-page screenshot of the live page, if any. */
  screenshotUrl: string | null;
}

/** Access a project user other than the owner can hold. */
export const MEMBER_ACCESS = ["edit", "comment", "view"] as const;
export type MemberAccess = (typeof MEMBER_ACCESS)[number];

/** Public-link settings (SPEC §3 isShared). */
export interface ProjectSharing {
  public: boolean;
  canComment: boolean;
  showAllPages: boolean;
  showPageVersions: boolean;
  showEdits: boolean;
  hideDeviceToolbar: boolean;
}

export const DEFAULT_SHARING: ProjectSharing = {
  public: false,
  canComment: true,
  showAllPages: true,
  showPageVersions: true,
  showEdits: false,
  hideDeviceToolbar: false,
};

/** A legacy boolean isShared becomes the settings object: true → public with defaults. */
export function normalizeSharing(
  value: boolean | Partial<ProjectSharing> | null | undefined,
): ProjectSharing {
  if (value === true) return { ...DEFAULT_SHARING, public: true };
  if (!value) return { ...DEFAULT_SHARING };
  return { ...DEFAULT_SHARING, ...value };
}

export const addMemberSchema = z
  .object({ email: z.email().max(320), access: z.enum(MEMBER_ACCESS) })
  .strict();
export const updateMemberSchema = z.object({ access: z.enum(MEMBER_ACCESS) }).strict();
export const transferProjectSchema = z.object({ to: z.string().min(1).max(64) }).strict();
export const approverSchema = z.object({ isApprover: z.boolean() }).strict();
export const pageApprovalSchema = z.object({ approved: z.boolean() }).strict();
export const sharingUpdateSchema = z
  .object({
    public: z.boolean(),
    canComment: z.boolean(),
    showAllPages: z.boolean(),
    showPageVersions: z.boolean(),
    showEdits: z.boolean(),
    hideDeviceToolbar: z.boolean(),
  })
  .partial()
  .strict();

/** One person of a project as the share modal lists them. */
/** What the reader may do about one person of the project, computed by the server's members policy. */
export const memberAbilitiesSchema = z.strictObject({
  changeAccess: z.boolean(),
  remove: z.boolean(),
  /** This is the reader's own entry, and they may leave. */
  leave: z.boolean(),
  makeOwner: z.boolean(),
  toggleApprover: z.boolean(),
});
export type MemberAbilities = z.infer<typeof memberAbilitiesSchema>;

export const projectMemberSchema = z.strictObject({
  /** Member entry id; null for the owner (who has no entry). */
  id: z.string().nullable(),
  uid: z.string().nullable(),
  email: z.string().nullable(),
  displayName: z.string(),
  photoURL: z.string().nullable(),
  access: z.enum(["owner", ...MEMBER_ACCESS] satisfies Access[]),
  /** Invited by e-mail, not signed up yet. */
  isPending: z.boolean(),
  isApprover: z.boolean(),
  abilities: memberAbilitiesSchema,
});
export type ProjectMember = z.infer<typeof projectMemberSchema>;

/** POST /api/projects/{id}/members: the new entry, and whether it waits for a sign-up. */
export const memberAddedSchema = z.strictObject({ id: z.string(), isPending: z.boolean() });
/** POST /api/projects/{id}/transfer: the new owner's id. */
export const projectTransferredSchema = z.strictObject({ owner: z.string() });

export const SHARING_MESSAGES = {
  shared: "Project shared with the user.",
  accessUpdated: "User access updated.",
  removed: "User removed from the project.",
  removedSelf: "You have successfully removed yourself from the project.",
  approverUpdated: "Project approver updated.",
  approved: "This page is marked as approved",
  unapproved: "This page is marked as not approved",
  notAccessible: "Project is not found or accessible. Redirecting to all projects.",
} as const;

/**
 * Update-all-pages skips pages that are approved, archived, demo or added by the extension, and image
 * pages without a screenshot source (SPEC §4).
 */
export function isUpdatablePage(page: {
  url: string;
  isApproved: unknown;
  isArchived: boolean;
  isDemo: boolean;
  source: string | null;
  screenshotSource: string | null;
}): boolean {
  if (page.isApproved || page.isArchived || page.isDemo || page.source === "extension") return false;
  return page.url !== "image" || Boolean(page.screenshotSource);
}

export const updateAllPagesSchema = z.object({ copyUnresolvedComments: z.boolean().default(false) }).strict();
export const recaptureSchema = z.object({ copyUnresolvedComments: z.boolean().default(false) }).strict();

export const similarPagesQuerySchema = z.object({ url: httpUrl }).strict();

/** Same-site, page-like links of one page, offered by the similar-pages picker. */
export interface SimilarPages {
  url: string;
  pages: string[];
}
